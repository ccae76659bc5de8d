import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BotLogEntry, botLogEntries, type LogMessages } from '../botLogEntries.js';
import { NodeChild } from '../NodeChild.js';
import { EVENT_LOOP_PROBE, MAIN_SCRIPT } from '../paths.js';
import type { SandboxInfo } from '../SandboxProcess.js';
import type { JobEnd } from './invariants.js';

/** One massnick process of the soak: its tokens, when it ran, and its memory as sampled. */
export interface Incarnation {
	child: NodeChild;
	tokens: readonly string[];
	startedAt: number;
	endedAt?: number;
	/** Its event-loop probe's file. */
	probe: string;
	rss: Array<{ at: number; mb: number }>;
	peakMb: number;
}

/** Where the bots run: the sandbox, and the soak's own folders. */
export interface SoakBotsSetup {
	info: SandboxInfo;
	workDir: string;
	logDir: string;
	dataDir: string;
	tokens: readonly string[];
}

/**
 * massnick as systemd would run it, one process after another: started as `npm start` does,
 * killed, stopped and started again, its memory sampled every 2 s, and its log read back.
 */
export class SoakBots {
	readonly incarnations: Incarnation[] = [];
	/** WORKER_TOKENS of the next start: the operator takes a revoked token out. */
	tokens: readonly string[];
	#current: Incarnation | undefined;
	#sampler: NodeJS.Timeout | undefined;
	readonly #setup: SoakBotsSetup;

	constructor(setup: SoakBotsSetup) {
		this.#setup = setup;
		this.tokens = setup.tokens;
	}

	/** The process running now (or last). */
	get current(): Incarnation {
		if (!this.#current) throw new Error('soak: no massnick process started yet');
		return this.#current;
	}

	/** Starts massnick as `npm start` does; `fileSizeLimitKiB`: under that `ulimit -f`, a disk about to fill up. */
	async start(options: { fileSizeLimitKiB?: number } = {}): Promise<Incarnation> {
		const { info, workDir, logDir, dataDir } = this.#setup;
		const n = this.incarnations.length;
		const probe = join(logDir, `eventloop-${n}.jsonl`);
		const child = new NodeChild({
			name: `massnick #${n}`,
			script: MAIN_SCRIPT,
			args: ['start'],
			nodeArgs: ['--import', pathToFileURL(EVENT_LOOP_PROBE).href],
			cwd: workDir,
			env: {
				BOSS_TOKEN: info.bossToken,
				WORKER_TOKENS: this.tokens.join(','),
				GUILD_ID: info.guildId,
				DISCORD_API_URL: info.apiUrl,
				MASSNICK_DATA_DIR: dataDir,
				LOG_LEVEL: 'info',
				MASSNICK_BENCH_EVENT_LOOP_FILE: probe,
				// Run under tsx, its cache of compiled files would meet the limit too: the bot's own files are what is tried.
				...(options.fileSizeLimitKiB === undefined ? {} : { TSX_DISABLE_CACHE: '1' }),
			},
			logFile: join(logDir, `massnick-${n}.log`),
			...options,
		});
		await child.waitForLine((line) => line.includes('"msg":"massnick is ready"'), 300_000, 'that it is ready');
		const incarnation: Incarnation = { child, tokens: this.tokens, startedAt: Date.now(), probe, rss: [], peakMb: 0 };
		this.incarnations.push(incarnation);
		this.#current = incarnation;
		return incarnation;
	}

	/** SIGKILL, as a crash or the OOM killer would. */
	async kill(): Promise<void> {
		this.current.endedAt = Date.now();
		await this.current.child.kill();
	}

	/** SIGTERM, as the operator's restart would (SIGKILL past 15 s). */
	async stop(): Promise<void> {
		this.current.endedAt = Date.now();
		await this.current.child.stop(15_000);
	}

	/** Samples the running process's RSS every 2 s, until {@link stopSampling}. */
	startSampling(): void {
		this.#sampler = setInterval(async () => {
			const current = this.current;
			const read = await rssMb(current.child.pid);
			if (!read) return;
			current.rss.push({ at: Date.now(), mb: read.now });
			current.peakMb = Math.max(current.peakMb, read.peak);
		}, 2000);
	}

	stopSampling(): void {
		clearInterval(this.#sampler);
	}

	/** The bot's log lines with these messages, over every process it ran as (or those of `from`), in order. */
	log(messages: LogMessages, from: readonly Incarnation[] = this.incarnations): Promise<BotLogEntry[]> {
		return botLogEntries(
			from.map((incarnation) => incarnation.child.logFile),
			messages,
		);
	}

	/** How each job the bot ran ended ("job ended"), with why when it failed ("job failed"), in order. */
	async jobEnds(): Promise<JobEnd[]> {
		const failures = new Map<string, string>();
		const ends: JobEnd[] = [];
		for (const entry of await this.log({ is: ['job failed', 'job ended'] })) {
			const job = String(entry.job);
			if (entry.msg === 'job failed') failures.set(job, entry.err?.message ?? '');
			else {
				ends.push({ state: String(entry.state), message: failures.get(job) ?? '' });
				failures.delete(job);
			}
		}
		return ends;
	}
}

/** A process's resident set now and at its peak (`VmRSS`, `VmHWM`), in MB; `undefined` once it is gone. */
async function rssMb(pid: number): Promise<{ now: number; peak: number } | undefined> {
	try {
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		const now = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024;
		const peak = Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1]) / 1024;
		return { now, peak };
	} catch {
		return undefined;
	}
}
