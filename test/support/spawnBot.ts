import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Sandbox } from './startStack.js';

export interface BotProcess {
	child: ChildProcess;
	/** Everything the bot wrote to stdout and stderr so far. */
	output: () => string;
	/** Resolves with the exit code (or the signal's name). */
	exited: Promise<number | string>;
}

/**
 * Runs `npm start`'s code (`src/main.ts start`) in a child process against the sandbox, as an
 * operator would, so a test can SIGKILL or SIGTERM it mid-run.
 */
export async function spawnBot(sandbox: Sandbox, dataDir: string, workerTokens = sandbox.workerTokens): Promise<BotProcess> {
	const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start'], {
		cwd: process.cwd(),
		env: {
			PATH: process.env.PATH,
			BOSS_TOKEN: sandbox.bossToken,
			WORKER_TOKENS: workerTokens.join(','),
			GUILD_ID: sandbox.guildId,
			DISCORD_API_URL: sandbox.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			MASSNICK_CONFIG_DIR: 'test/support/config',
			LOG_LEVEL: 'info',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let text = '';
	child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
	const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
	const deadline = Date.now() + 30_000;
	while (!text.includes('massnick is ready')) {
		if (child.exitCode !== null || Date.now() > deadline) {
			child.kill('SIGKILL');
			throw new Error(`the bot did not start:\n${text}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return { child, output: () => text, exited };
}
