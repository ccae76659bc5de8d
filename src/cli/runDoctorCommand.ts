import { loadConfig, secretsOf } from '../config/index.js';
import { isSnowflake } from '../discord/snowflake.js';
import { runDoctor } from '../doctor/runDoctor.js';
import { createLogger } from '../log/createLogger.js';

const USAGE = `usage: npm run doctor [-- --channel <id>]

Checks BOSS_TOKEN, WORKER_TOKENS and GUILD_ID from .env against Discord (REST only, changes
nothing) and prints one row per bot, each problem with its fix, and each bot's invite link.

  --channel <id>   the channel massnick's live status will be posted in (right-click the channel
                   → Copy Channel ID); without it, every text channel is checked

Exit code: 0 when nothing would stop a job (warnings allowed), 1 otherwise, 2 on bad arguments.`;

/** `npm run doctor`: returns the exit code. The report goes to stdout, logs to stderr. */
export async function runDoctorCommand(args: readonly string[]): Promise<number> {
	let channelId: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i]!;
		if (arg === '--help' || arg === '-h') {
			console.log(USAGE);
			return 0;
		}
		const inline = arg.startsWith('--channel=') ? arg.slice('--channel='.length) : undefined;
		if (arg === '--channel' || inline !== undefined) {
			channelId = inline ?? args[++i];
			if (!isSnowflake(channelId)) {
				console.error(`--channel needs a channel id (17 to 20 digits), got ${channelId === undefined ? 'nothing' : JSON.stringify(channelId)}\n\n${USAGE}`);
				return 2;
			}
			continue;
		}
		console.error(`unknown argument ${JSON.stringify(arg)}\n\n${USAGE}`);
		return 2;
	}
	const config = loadConfig();
	const logger = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, secrets: secretsOf(config), destination: 2 });
	const { exitCode } = await runDoctor({ config, channelId, logger, out: (line) => process.stdout.write(`${line}\n`) });
	return exitCode;
}
