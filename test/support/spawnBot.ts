import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Sandbox } from './startStack.js';
import { waitUntil } from './waitUntil.js';

export interface BotProcess {
	child: ChildProcess;
	/** Sends a signal to the bot's whole process group, as Ctrl-C or systemd's stop would. */
	signal(signal: NodeJS.Signals): void;
	/** Everything the bot wrote to stdout and stderr so far. */
	output: () => string;
	/** Resolves with the exit code (or the signal's name). */
	exited: Promise<number | string>;
}

export interface SpawnBotOptions {
	workerTokens?: readonly string[];
	/** The command and its arguments; default: node with tsx running `src/main.ts start`. */
	command?: readonly [string, ...string[]];
	/** Default: this repository (its `test/support/config`). */
	cwd?: string;
	configDir?: string;
	/** Environment keys to add, or to remove with `undefined` (a fleet process has no BOSS_TOKEN). */
	env?: Readonly<Record<string, string | undefined>>;
	/** What the output says once the process is up; default `massnick is ready`. */
	readyText?: string;
}

/**
 * Runs `npm start`'s code (`src/main.ts start`, or `command`) in a child process against the
 * sandbox, as an operator would, so a test can SIGKILL or SIGTERM it mid-run.
 */
export async function spawnBot(sandbox: Sandbox, dataDir: string, options: SpawnBotOptions = {}): Promise<BotProcess> {
	const workerTokens = options.workerTokens ?? sandbox.workerTokens;
	const [command, ...args] = options.command ?? [process.execPath, '--import', 'tsx', 'src/main.ts', 'start'];
	const env: Record<string, string | undefined> = {
		PATH: process.env.PATH,
		BOSS_TOKEN: sandbox.bossToken,
		WORKER_TOKENS: workerTokens.join(','),
		GUILD_ID: sandbox.guildId,
		DISCORD_API_URL: sandbox.apiUrl,
		MASSNICK_DATA_DIR: dataDir,
		MASSNICK_CONFIG_DIR: options.configDir ?? 'test/support/config',
		LOG_LEVEL: 'info',
		...options.env,
	};
	for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
	const readyText = options.readyText ?? 'massnick is ready';
	const child = spawn(command, args, {
		cwd: options.cwd ?? process.cwd(),
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own process group, so a signal can reach everything it started (npm and node), as
		// Ctrl-C in a terminal or systemd's stop does.
		detached: true,
	});
	let text = '';
	child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	// 'close', not 'exit': npm exits before the node it started has written its last line.
	const exited = once(child, 'close').then(([code, signal]) => (code ?? signal) as number | string);
	try {
		await waitUntil(
			() => {
				if (child.exitCode !== null) throw new Error(`the bot exited with ${child.exitCode}`);
				return text.includes(readyText);
			},
			{ what: 'the bot to be ready' },
		);
	} catch (error) {
		child.kill('SIGKILL');
		throw new Error(`the bot did not start (${(error as Error).message}):\n${text}`);
	}
	return { child, output: () => text, exited, signal: (signal) => process.kill(-child.pid!, signal) };
}
