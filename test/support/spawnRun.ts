import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Sandbox } from './startStack.js';

export interface RunResult {
	/** The exit code, or the signal's name. */
	code: number | string;
	stdout: string;
	stderr: string;
}

export interface CliRun {
	child: ChildProcess;
	stdout: () => string;
	stderr: () => string;
	/** The exit code, once the process has ended and its output is in. */
	exited: Promise<number | string>;
	/** To the whole process group, as Ctrl-C or a scheduler's stop would. */
	signal(signal: NodeJS.Signals): void;
}

/**
 * `massnick run …` from src (through tsx), as an operator or a scheduler would run it: no terminal.
 * `env` adds keys, or removes them with `undefined` (a fleet's pod has no BOSS_TOKEN);
 * `fileSizeLimitKiB` runs it under that `ulimit -f`.
 */
export function startRun(
	sandbox: Sandbox,
	dataDir: string,
	args: readonly string[],
	env: Readonly<Record<string, string | undefined>> = {},
	options: { fileSizeLimitKiB?: number } = {},
): CliRun {
	const merged: Record<string, string | undefined> = {
		PATH: process.env.PATH,
		BOSS_TOKEN: sandbox.bossToken,
		WORKER_TOKENS: sandbox.workerTokens.join(','),
		GUILD_ID: sandbox.guildId,
		DISCORD_API_URL: sandbox.apiUrl,
		MASSNICK_DATA_DIR: dataDir,
		MASSNICK_CONFIG_DIR: 'test/support/config',
		LOG_LEVEL: 'info',
		...env,
	};
	for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
	const node = [process.execPath, '--import', 'tsx', 'src/main.ts', 'run', ...args];
	// `ulimit -f`: the kernel refuses to grow any file of the process past the limit (EFBIG), as a full disk does (ENOSPC).
	const [command, ...commandArgs] =
		options.fileSizeLimitKiB === undefined ? node : ['bash', '-c', `ulimit -f ${options.fileSizeLimitKiB} && exec "$@"`, 'bash', ...node];
	const child = spawn(command!, commandArgs, {
		env: merged,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	let stdout = '';
	let stderr = '';
	child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const exited = once(child, 'close').then(([code, signal]) => (code ?? signal) as number | string);
	return { child, stdout: () => stdout, stderr: () => stderr, exited, signal: (signal) => process.kill(-child.pid!, signal) };
}

/**
 * `massnick run …` from src (through tsx) against `sandbox`, as a scheduler would run it: no
 * terminal, the test settings of `test/support/config`. Resolves once it has exited and its
 * output is in.
 */
export async function spawnRun(sandbox: Sandbox, dataDir: string, args: readonly string[]): Promise<RunResult> {
	const run = startRun(sandbox, dataDir, args);
	return { code: await run.exited, stdout: run.stdout(), stderr: run.stderr() };
}
