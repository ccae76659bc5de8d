import { DiscordAPIError, REST, RESTJSONErrorCodes } from 'discord.js';
import { type Config, createRedactor, expandAuditLogReason, loadConfig, secretsOf } from '../config/index.js';
import { MassnickError } from '../errors.js';
import { describeLockdown, liftLockdown, startLockdown } from '../lockdown/index.js';
import { createLogger } from '../log/createLogger.js';
import { cliRequester } from './cliRequester.js';
import type { LockdownRunRequest } from './parseLockdownArgs.js';
import { type RunExitCode, RunExitCodes } from './runOutcome.js';

/**
 * `massnick run lockdown [on] [--hours N] [--dms | --no-dms]` and `massnick run lockdown off`: the
 * request `/lockdown` sends, from a terminal, with the boss's token over REST alone (no gateway, no
 * run lock: it changes the server, not its members, and may run beside a job). The operator holds
 * the token, so the boss's permissions are the only check: Discord asks it Manage Guild. stderr
 * says what is paused now, in ISO 8601; stdout's log carries one `lockdown` line.
 */
export async function runLockdown(request: LockdownRunRequest): Promise<RunExitCode> {
	let config: Config;
	try {
		config = loadConfig();
	} catch (error) {
		// A ConfigError names each key and never shows a secret.
		process.stderr.write(`${(error as Error).message}\n`);
		return RunExitCodes.Refused;
	}
	const redact = createRedactor(secretsOf(config));
	const say = (line: string): void => void process.stderr.write(`${redact(line)}\n`);
	const log = createLogger({ level: config.logLevel, format: config.logFormat, secrets: secretsOf(config), destination: 1 }).child({ component: 'lockdown' });
	if (config.bossToken === '') {
		say("massnick run lockdown sends with the boss's token: set BOSS_TOKEN in .env (a lockdown is the boss's, never a worker's).");
		return RunExitCodes.Refused;
	}
	const rest = new REST({ ...(config.apiUrl ? { api: config.apiUrl } : {}), timeout: config.rest.timeoutMs, retries: 1 }).setToken(config.bossToken);
	const requester = cliRequester();
	const reason = expandAuditLogReason(config.auditLogReason, {
		jobKind: request.off ? 'lockdown off' : 'lockdown',
		user: requester.tag,
		userId: requester.id,
		jobId: 'none',
	});
	try {
		const lockdown = request.off
			? await liftLockdown(rest, config.guildId, reason)
			: await startLockdown(rest, config.guildId, { hours: request.hours, dms: request.dms, reason });
		const now = describeLockdown(lockdown, (at) => at.toISOString());
		say(request.off ? `Lockdown lifted: ${now}.` : `Lockdown: ${now}. massnick run lockdown off (or /lockdown off) opens them sooner.`);
		log.info({ off: request.off, invitesUntil: lockdown.invitesUntil, dmsUntil: lockdown.dmsUntil, exitCode: RunExitCodes.Done }, 'lockdown');
		return RunExitCodes.Done;
	} catch (error) {
		const { line, exitCode } = worded(error, config.guildId);
		say(line);
		log.warn({ err: error, exitCode }, 'lockdown refused');
		return exitCode;
	}
}

/** What went wrong, as the operator reads it, and the exit code it means. */
function worded(error: unknown, guildId: string): { line: string; exitCode: RunExitCode } {
	if (error instanceof MassnickError) return { line: `${error.message} Nothing changed.`, exitCode: RunExitCodes.Refused };
	if (error instanceof DiscordAPIError) {
		if (error.status === 401)
			return { line: "The boss's token (BOSS_TOKEN) was rejected by Discord: check it in .env. Nothing changed.", exitCode: RunExitCodes.Refused };
		if (error.code === RESTJSONErrorCodes.UnknownGuild || error.code === RESTJSONErrorCodes.MissingAccess) {
			return {
				line: `The boss bot is not a member of guild ${guildId}: check GUILD_ID, or invite the boss (npm run doctor prints its link). Nothing changed.`,
				exitCode: RunExitCodes.Refused,
			};
		}
		return { line: `Discord refused the lockdown: ${error.message}. Nothing changed.`, exitCode: RunExitCodes.Refused };
	}
	return { line: `Could not reach Discord: ${(error as Error).message}. Nothing changed; run it again later.`, exitCode: RunExitCodes.RetryLater };
}
