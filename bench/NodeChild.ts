import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * tsx's loader, resolved from here, so a child can run TypeScript from any working directory.
 * Running `node --import <loader> file.ts` (not `npx tsx`) keeps the measured code in the
 * process we spawn: its pid is the one whose memory and CPU time `/proc` reports.
 */
const TSX_LOADER = import.meta.resolve('tsx');

export interface NodeChildOptions {
	/** Names the child in errors and in its log file. */
	name: string;
	/** A TypeScript or JavaScript file. */
	script: string;
	/** Node's own options, before the script (e.g. `--import` of a preload). */
	nodeArgs?: readonly string[];
	args?: readonly string[];
	/** Added to the harness's environment. */
	env?: Readonly<Record<string, string>>;
	cwd?: string;
	/** Where the child's stdout and stderr are copied, for when a scenario fails. */
	logFile: string;
	/**
	 * Runs the child under `ulimit -f` of this many KiB: the kernel refuses to grow any file the
	 * child writes past it (EFBIG, as a full disk gives ENOSPC). Its log file is written by the
	 * harness, from the pipe, so the limit touches only the child's own files.
	 */
	fileSizeLimitKiB?: number;
}

type LineWaiter = { test: (line: string) => boolean; resolve: (line: string) => void };

/**
 * A node child process the benchmark started. Every one is registered until it exits, so the
 * harness can kill whatever is left on an error or a Ctrl-C ({@link NodeChild.killAll}).
 */
export class NodeChild {
	static readonly #live = new Set<NodeChild>();

	/** Kills every child still running, at once (SIGKILL): for exit paths that cannot wait. */
	static killAll(): void {
		for (const child of NodeChild.#live) child.#process.kill('SIGKILL');
	}

	readonly name: string;
	readonly pid: number;
	readonly logFile: string;
	/** Resolves with the exit code (or the signal's name) when the process has ended. */
	readonly exited: Promise<number | string>;
	readonly #process: ChildProcess;
	readonly #log: WriteStream;
	readonly #waiters = new Set<LineWaiter>();
	#tail = '';
	readonly #recentLines: string[] = [];
	#exitCode: number | string | undefined;

	constructor(options: NodeChildOptions) {
		this.name = options.name;
		this.logFile = options.logFile;
		this.#log = createWriteStream(options.logFile);
		// Compiled scripts run on plain node, as `npm start` runs the bot: tsx's loader alone costs
		// about 36 MB of RSS, which would be measured as the subject's.
		const loader = options.script.endsWith('.ts') ? ['--import', TSX_LOADER] : [];
		const node = [process.execPath, ...loader, ...(options.nodeArgs ?? []), options.script, ...(options.args ?? [])];
		// `exec`: the shell becomes node, so the pid is the bot's (for /proc and the signals).
		const [command, ...commandArgs] =
			options.fileSizeLimitKiB === undefined ? node : ['bash', '-c', `ulimit -f ${options.fileSizeLimitKiB} && exec "$@"`, 'bash', ...node];
		this.#process = spawn(command!, commandArgs, {
			cwd: options.cwd,
			env: { ...process.env, ...options.env },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		if (this.#process.pid === undefined) throw new Error(`could not start ${this.name}`);
		this.pid = this.#process.pid;
		NodeChild.#live.add(this);
		// 'close', not 'exit': it comes after the last output, so the log is complete.
		this.exited = once(this.#process, 'close').then(([code, signal]) => {
			NodeChild.#live.delete(this);
			this.#exitCode = (code as number | null) ?? (signal as NodeJS.Signals | null) ?? 'unknown';
			this.#log.end();
			return this.#exitCode;
		});
		// A child that ends while we write to it must not crash the harness.
		this.#process.stdin!.on('error', () => {});
		createInterface({ input: this.#process.stdout! }).on('line', (line) => {
			this.#log.write(`${line}\n`);
			this.#recentLines.push(line);
			if (this.#recentLines.length > 20) this.#recentLines.shift();
			for (const waiter of this.#waiters) {
				if (waiter.test(line)) {
					this.#waiters.delete(waiter);
					waiter.resolve(line);
				}
			}
		});
		this.#process.stderr!.on('data', (chunk: Buffer) => {
			this.#log.write(chunk);
			this.#tail = (this.#tail + chunk.toString()).slice(-2000);
		});
	}

	/** The last 20 lines it printed on stdout. */
	get recentLines(): readonly string[] {
		return this.#recentLines;
	}

	get running(): boolean {
		return this.#exitCode === undefined;
	}

	/**
	 * The first stdout line from now on that passes `test`. Rejects if the child exits first or
	 * `timeoutMs` passes, with the end of its stderr so the cause shows.
	 */
	async waitForLine(test: (line: string) => boolean, timeoutMs: number, what: string): Promise<string> {
		let waiter: LineWaiter | undefined;
		let timer: NodeJS.Timeout | undefined;
		try {
			return await new Promise<string>((resolve, reject) => {
				waiter = { test, resolve };
				this.#waiters.add(waiter);
				timer = setTimeout(() => reject(this.failure(`did not report ${what} within ${timeoutMs / 1000} s`)), timeoutMs);
				// Rejecting a settled promise does nothing, so a later exit is harmless.
				void this.exited.then((code) => reject(this.failure(`exited (${code}) before ${what}`)));
			});
		} finally {
			if (waiter) this.#waiters.delete(waiter);
			clearTimeout(timer);
		}
	}

	/** Writes one line to the child's stdin. */
	send(line: string): void {
		this.#process.stdin!.write(`${line}\n`);
	}

	/** An error naming the child, with the end of its stderr and where the full log is. */
	failure(message: string): Error {
		const tail = this.#tail.trim();
		return new Error(`${this.name} ${message}${tail ? `; its stderr ended with:\n${tail}` : ''}\n(full output: ${this.logFile})`);
	}

	/** SIGKILL at once, as a crash or the OOM killer would; resolves once it is gone. */
	async kill(): Promise<void> {
		if (!this.running) return;
		this.#process.kill('SIGKILL');
		await this.exited;
	}

	/** SIGTERM, then SIGKILL if it has not exited within `graceMs`; resolves once it is gone. */
	async stop(graceMs = 5000): Promise<void> {
		if (!this.running) return;
		this.#process.kill('SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const killed = await Promise.race([
			this.exited.then(() => false),
			new Promise<boolean>((resolve) => {
				timer = setTimeout(() => resolve(true), graceMs);
			}),
		]);
		clearTimeout(timer);
		if (killed) {
			this.#process.kill('SIGKILL');
			await this.exited;
		}
	}
}
