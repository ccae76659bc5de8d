import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { SandboxOptionError, type SandboxOptionProblem } from './SandboxOptionError.js';
import { SANDBOX_DEFAULTS, type SandboxOptions } from './SandboxOptions.js';
import { startSandbox } from './startSandbox.js';

const USAGE = `usage: npm run sandbox -- [--members N] [--workers N] [--seed N] [--port N] [--host ADDR] [--time-scale F] [--log-level LEVEL]
                          [--decorated-names F] [--worker-members-intent] [--integration-limit N]

  --members     generated members, 10..10000000 (default ${SANDBOX_DEFAULTS.members}); the bots join on top
  --workers     worker applications besides the boss (default ${SANDBOX_DEFAULTS.workers})
  --seed        same seed, same guild, ids and tokens (default ${SANDBOX_DEFAULTS.seed})
  --port        0 picks a free port (default ${SANDBOX_DEFAULTS.port})
  --host        loopback address to listen on (default ${SANDBOX_DEFAULTS.host}; the control API has no authentication)
  --time-scale  divides every rate-limit window (default ${SANDBOX_DEFAULTS.timeScale})
  --log-level   pino level for the logs on stderr (default info)
  --decorated-names
                the share of generated members, 0..1, whose shown name is decorated: 𝐁𝐨𝐛, 𝓑𝓸𝓫, Ｂｏｂ, Ⓑⓞⓑ, ʙᴏʙ,
                zalgo, "!!! Bob", "  .Bob", "ǃBob", "★☆★", "ㅤ" (default ${SANDBOX_DEFAULTS.decoratedNames}; same seed, same names)
  --worker-members-intent
                the worker applications have the Server Members intent too (default: the boss's alone)
  --integration-limit
                bots the guild may hold, the boss, the workers and the other bots together (default
                ${SANDBOX_DEFAULTS.integrationLimit}, Discord's); raise it only to study one process beyond one server

Prints one JSON line on stdout once listening: {"apiUrl","controlUrl","guildId","ownerId","channelId","bossToken","workerTokens"}.
Runs until SIGINT or SIGTERM.`;

const FLAGS = {
	members: { type: 'string' },
	workers: { type: 'string' },
	seed: { type: 'string' },
	port: { type: 'string' },
	host: { type: 'string' },
	'time-scale': { type: 'string' },
	'log-level': { type: 'string' },
	'decorated-names': { type: 'string' },
	'worker-members-intent': { type: 'boolean' },
	'integration-limit': { type: 'string' },
	help: { type: 'boolean', short: 'h' },
} as const;

/** The CLI's flags as `startSandbox` options; throws `SandboxOptionError` naming every bad flag. */
export function parseSandboxArgs(argv: readonly string[]): { options: SandboxOptions; logLevel: string; help: boolean } {
	let values: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>['values'];
	try {
		({ values } = parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: false }));
	} catch (error) {
		throw new SandboxOptionError([{ option: 'arguments', message: (error as Error).message }]);
	}
	const problems: SandboxOptionProblem[] = [];
	const number = (flag: keyof typeof FLAGS, integer: boolean): number | undefined => {
		const raw = values[flag];
		if (raw === undefined || typeof raw !== 'string') return undefined;
		const value = Number(raw);
		if (raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
			problems.push({ option: `--${flag}`, message: `must be ${integer ? 'an integer' : 'a number'}, got "${raw}"` });
			return undefined;
		}
		return value;
	};
	const options: SandboxOptions = {
		members: number('members', true),
		workers: number('workers', true),
		seed: number('seed', true),
		port: number('port', true),
		timeScale: number('time-scale', false),
		decoratedNames: number('decorated-names', false),
		integrationLimit: number('integration-limit', true),
		...(values.host === undefined ? {} : { host: values.host }),
		...(values['worker-members-intent'] === true ? { workerMembersIntent: true } : {}),
	};
	const logLevel = values['log-level'] ?? 'info';
	if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
		problems.push({ option: '--log-level', message: `unknown level "${logLevel}"` });
	if (problems.length > 0) throw new SandboxOptionError(problems);
	return { options, logLevel, help: values.help === true };
}

/** Maps `startSandbox`'s option names back to the flags a CLI user typed. */
const FLAG_OF: Record<string, string> = {
	members: '--members',
	workers: '--workers',
	seed: '--seed',
	port: '--port',
	host: '--host',
	timeScale: '--time-scale',
	decoratedNames: '--decorated-names',
	integrationLimit: '--integration-limit',
};

/**
 * `npm run sandbox`: starts the sandbox, prints where it is as one JSON line on stdout, logs to
 * stderr, and closes on SIGINT/SIGTERM. Bad flags exit with code 2, naming the flag.
 */
export async function runSandboxCli(argv: string[]): Promise<void> {
	let parsed: ReturnType<typeof parseSandboxArgs>;
	try {
		parsed = parseSandboxArgs(argv);
	} catch (error) {
		return exitWithUsage(error);
	}
	if (parsed.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	// Tokens are never logged; the redaction is a second line of defence.
	const logger = pino({ level: parsed.logLevel, redact: ['token', '*.token', 'bossToken', 'workerTokens', 'headers.authorization'] }, pino.destination(2));
	let sandbox: Awaited<ReturnType<typeof startSandbox>>;
	try {
		sandbox = await startSandbox({ ...parsed.options, logger });
	} catch (error) {
		if (error instanceof SandboxOptionError) {
			return exitWithUsage(new SandboxOptionError(error.problems.map((problem) => ({ ...problem, option: FLAG_OF[problem.option] ?? problem.option }))));
		}
		throw error;
	}
	const { apiUrl, controlUrl, guildId, ownerId, channelId, bossToken, workerTokens } = sandbox;
	process.stdout.write(`${JSON.stringify({ apiUrl, controlUrl, guildId, ownerId, channelId, bossToken, workerTokens })}\n`);

	const [signal] = await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
	logger.info({ signal }, 'stopping');
	await sandbox.close();
	logger.flush();
	process.exitCode = 0;
}

function exitWithUsage(error: unknown): never {
	const message = error instanceof SandboxOptionError ? error.problems.map((problem) => `${problem.option}: ${problem.message}`).join('\n') : String(error);
	process.stderr.write(`sandbox: ${message}\n\n${USAGE}\n`);
	process.exit(2);
}
