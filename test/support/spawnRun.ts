import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Sandbox } from './startStack.js';

export interface RunResult {
	/** The exit code, or the signal's name. */
	code: number | string;
	stdout: string;
	stderr: string;
}

/**
 * `massnick run …` from src (through tsx) against `sandbox`, as a scheduler would run it: no
 * terminal, the test settings of `test/support/config`. Resolves once it has exited and its
 * output is in.
 */
export async function spawnRun(sandbox: Sandbox, dataDir: string, args: readonly string[]): Promise<RunResult> {
	const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'run', ...args], {
		env: {
			PATH: process.env.PATH,
			BOSS_TOKEN: sandbox.bossToken,
			WORKER_TOKENS: sandbox.workerTokens.join(','),
			GUILD_ID: sandbox.guildId,
			DISCORD_API_URL: sandbox.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			MASSNICK_CONFIG_DIR: 'test/support/config',
			LOG_LEVEL: 'info',
		},
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
	return { code: code ?? signal ?? 'unknown', stdout, stderr };
}
