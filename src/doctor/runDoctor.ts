import { type Logger, pino } from 'pino';
import { commandPermissions } from '../actions/index.js';
import { type Config, createRedactor, secretsOf } from '../config/index.js';
import { PatientRest } from '../discord/PatientRest.js';
import type { BotRole } from '../discord/requiredPermissions.js';
import { ErrorCodes } from '../errors.js';
import type { BotFacts } from './BotFacts.js';
import { describeFailure } from './describeFailure.js';
import { diagnose } from './diagnose.js';
import type { Finding } from './Finding.js';
import type { GuildFacts } from './GuildFacts.js';
import { fleetJournalsSection } from './fleetJournalsSection.js';
import { journalsSection } from './journalsSection.js';
import { readBot } from './readBot.js';
import { readGuild } from './readGuild.js';
import { renderReport } from './renderReport.js';

/** A section appended to the report: its lines, heading included. */
export type DoctorSection = () => Promise<string[]>;

export interface RunDoctorOptions {
	config: Pick<Config, 'bossToken' | 'workerTokens' | 'guildId' | 'apiUrl' | 'rest' | 'dataDir' | 'journal' | 'fleetJournalsDir' | 'workers' | 'invite'>;
	/** Receives the report one line at a time (already free of tokens). */
	out: (line: string) => void;
	/** The channel the live status will be posted in; every text channel is checked when absent. */
	channelId?: string | undefined;
	/** Sections after the verdict, each set apart by a rule; by default the journals on disk. */
	extraSections?: readonly DoctorSection[];
	logger?: Logger;
}

export interface DoctorResult {
	/** 0 when nothing would stop a job, 1 otherwise. */
	readonly exitCode: 0 | 1;
	readonly findings: readonly Finding[];
}

/**
 * `npm run doctor`: checks every token against Discord (or DISCORD_API_URL) with REST alone, no
 * gateway login, and prints one row per bot, each problem with its fix, and every bot's invite
 * link. Reads only: it registers nothing, posts nothing, renames nobody.
 */
export async function runDoctor({ config, out, channelId, extraSections, logger }: RunDoctorOptions): Promise<DoctorResult> {
	const redact = createRedactor(secretsOf(config));
	const bots: Array<{ role: BotRole; label: string; token: string; tokenSetting: string }> = [
		{ role: 'boss', label: 'boss', token: config.bossToken, tokenSetting: 'BOSS_TOKEN' },
		...config.workerTokens.map((token, index) => ({
			role: 'worker' as const,
			label: `worker ${index}`,
			token,
			tokenSetting: `WORKER_TOKENS (token ${index + 1} in the list)`,
		})),
	];
	// Every read waits out a Discord incident (5xx, time-outs) with the changes' backoff, logging
	// each wait: a report made of passing errors would send the operator after the wrong fix.
	const quiet = logger ?? pino({ level: 'silent' });
	const clients = bots.map(({ token, label }) =>
		new PatientRest(
			{ ...(config.apiUrl ? { api: config.apiUrl } : {}), timeout: config.rest.timeoutMs, retries: 0 },
			{ label, logger: quiet, retry: config.workers.retry },
		).setToken(token),
	);
	const facts: BotFacts[] = await Promise.all(bots.map((bot, index) => readBot({ rest: clients[index]!, guildId: config.guildId, ...bot })));
	for (const bot of facts)
		logger?.debug(
			{ bot: bot.label, token: bot.token, inGuild: bot.memberRoles ? true : bot.memberRoles === null ? false : undefined, failure: bot.failure },
			'bot read',
		);

	// The guild is read once, by the first bot inside it (the boss when it is).
	let guild: GuildFacts | null = null;
	const extraFindings: Finding[] = [];
	const reader = facts.findIndex((bot) => bot.memberRoles);
	if (reader !== -1) {
		try {
			guild = await readGuild(clients[reader]!, config.guildId);
		} catch (error) {
			logger?.warn({ err: error, bot: bots[reader]!.label }, 'could not read the guild');
			extraFindings.push({
				code: ErrorCodes.CheckFailed,
				severity: 'fatal',
				message: `the guild could not be read (with ${bots[reader]!.label}'s token): ${describeFailure(error)}.`,
				fix: 'check DISCORD_API_URL and the network, then run the doctor again',
				context: { bot: bots[reader]!.label },
			});
		}
	}

	const diagnosis = diagnose({
		guildId: config.guildId,
		...(channelId === undefined ? {} : { channelId }),
		bots: facts,
		guild,
		commands: commandPermissions(),
		inviteActions: config.invite.actions,
	});
	const findings = [...diagnosis.findings, ...extraFindings];
	const lines = renderReport({ guildId: config.guildId, guild, diagnosis: { ...diagnosis, findings } });
	for (const section of extraSections ?? [journalsSection(config), fleetJournalsSection(config)]) {
		let sectionLines: string[];
		try {
			sectionLines = await section();
		} catch (error) {
			sectionLines = [`(a section could not be written: ${describeFailure(error)})`];
		}
		if (sectionLines.length > 0) lines.push('', '─'.repeat(60), ...sectionLines);
	}
	for (const line of lines) out(redact(line));
	const exitCode = findings.some((finding) => finding.severity === 'fatal') ? 1 : 0;
	logger?.info({ exitCode, fatal: findings.filter((finding) => finding.severity === 'fatal').map((finding) => finding.code) }, 'doctor done');
	return { exitCode, findings };
}
