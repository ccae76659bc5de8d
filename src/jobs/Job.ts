import { EventEmitter, setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { workerIndexOf } from '../workers/partition.js';
import type { Fleet } from '../workers/Fleet.js';
import type { Worker } from '../workers/Worker.js';
import { listMembers } from './listMembers.js';
import type { MemberRecord, Plan } from './planner.js';
import { Progress } from './Progress.js';
import { type PendingChange, runSlice, type SliceEnd } from './runSlice.js';
import { WorkQueue } from './WorkQueue.js';

/** A job's life: planned → running → finished | failed, or running → cancelling → cancelled. */
export type JobState = 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';

export type JobKind = 'rename' | 'restore' | 'clear';

export interface JobEvents {
	state: [state: JobState];
	/** A worker stopped for good mid-run (its token was revoked). */
	workerStopped: [worker: Worker];
}

export interface JobOptions {
	id: string;
	kind: JobKind;
	/** What the job sets, for people: the name template, or "originals". */
	target: string;
	dryRun: boolean;
	startedBy: { id: string; tag: string };
	fleet: Fleet;
	guildId: string;
	/** Plans one member for the worker that owns it. Pure; see planner.ts. */
	plan: (member: MemberRecord, worker: Worker) => Plan;
	/** Durably records changes before they go out (the journal); skipped on a dry run. */
	beforeChange?: ((changes: PendingChange[]) => Promise<void>) | undefined;
	/** Audit-log reason sent with every rename. */
	reason: string;
	maxInFlight: number;
	retry: { attempts: number; baseDelayMs: number; maxDelayMs: number };
	logger: Logger;
	now?: () => number;
}

/** How a job ended, for the report. */
export interface JobResult {
	state: 'finished' | 'failed' | 'cancelled';
	error?: Error;
	/** Workers whose token was revoked during the run. */
	stoppedWorkers: number[];
}

/**
 * One run of /massnick, /restore or their dry runs over the whole guild.
 *
 * There is no coordinator: the listing hands each member to the worker that owns it by the
 * snowflake rule, and each worker decides alone. The job is a state machine with an
 * `AbortSignal` for /cancel; it keeps only counters and the bounded queues in memory.
 */
export class Job extends EventEmitter<JobEvents> {
	readonly id: string;
	readonly kind: JobKind;
	readonly target: string;
	readonly dryRun: boolean;
	readonly startedBy: { id: string; tag: string };
	readonly progress: Progress;
	readonly startedAt: number;
	#state: JobState = 'planned';
	#result: JobResult | undefined;
	readonly #options: JobOptions;
	readonly #controller = new AbortController();
	readonly #requests = new AbortController();
	/** Joiners seen while the listing was still running, above where it had reached. */
	readonly #deferredJoiners: MemberRecord[] = [];
	readonly #queues: WorkQueue<MemberRecord>[];
	readonly #left = new Set<string>();
	/** The highest member id the listing has handed out; joiners above it are its to find. */
	#listedUpTo = 0n;
	#listingDone = false;
	#peakQueued = 0;

	constructor(options: JobOptions) {
		super();
		this.#options = options;
		this.id = options.id;
		this.kind = options.kind;
		this.target = options.target;
		this.dryRun = options.dryRun;
		this.startedBy = options.startedBy;
		const now = options.now ?? Date.now;
		this.startedAt = now();
		this.progress = new Progress(options.fleet.size, now);
		// Every queued rename and backoff listens on these signals: hundreds at once is expected.
		setMaxListeners(0, this.#controller.signal, this.#requests.signal);
		// Room for a page's share on top of what is in flight: 1000 members over N workers.
		const capacity = Math.max(options.maxInFlight * 4, Math.ceil(2000 / options.fleet.size));
		this.#queues = options.fleet.workers.map(() => new WorkQueue<MemberRecord>(capacity));
	}

	get state(): JobState {
		return this.#state;
	}

	get result(): JobResult | undefined {
		return this.#result;
	}

	get signal(): AbortSignal {
		return this.#controller.signal;
	}

	/** The most members any worker held queued at once: bounded however large the guild. */
	get peakQueued(): number {
		return this.#peakQueued;
	}

	/** How many members each worker's queue holds before the listing waits. */
	get queueCapacity(): number {
		return this.#queues[0]?.capacity ?? 0;
	}

	get listingDone(): boolean {
		return this.#listingDone;
	}

	/**
	 * Stops every worker: no new member is taken at once; requests that go out within `graceMs`
	 * finish, and those still waiting on a rate-limit reset after it are dropped.
	 */
	cancel(graceMs = 2000): void {
		if (this.#state !== 'running' && this.#state !== 'planned') return;
		this.#setState('cancelling');
		this.#controller.abort(new Error('cancelled'));
		// Releases a listing that waits for room in queues nobody takes from any more.
		for (const queue of this.#queues) queue.close();
		const timer = setTimeout(() => this.#requests.abort(new Error('cancelled')), graceMs);
		timer.unref();
		this.once('state', () => clearTimeout(timer));
	}

	/** A member joined while the job runs: its owner takes it, unless the listing will reach it. */
	memberJoined(member: MemberRecord): void {
		this.#left.delete(member.id);
		if (this.#state !== 'running') return;
		if (!this.#listingDone && BigInt(member.id) > this.#listedUpTo) {
			// The listing should reach them; if it ends first (it raced the join), they are handed
			// out when it does.
			this.#deferredJoiners.push(member);
			return;
		}
		this.#assign(member);
	}

	#assign(member: MemberRecord): void {
		const index = workerIndexOf(member.id, this.#options.fleet.size);
		const worker = this.#options.fleet.workers[index];
		if (worker && worker.state !== 'revoked') {
			this.#queues[index]!.push(member);
			this.progress.assigned(index);
		}
	}

	/** A member left: nothing more is sent for them, and they count as left, not failed. */
	memberLeft(memberId: string): void {
		if (this.#state === 'running' || this.#state === 'planned') this.#left.add(memberId);
	}

	/** Runs the job to its end; never throws (the result says how it ended). */
	async run(): Promise<JobResult> {
		const { fleet, logger } = this.#options;
		this.#setState('running');
		const stoppedWorkers: number[] = [];
		const slices = fleet.workers.map(async (worker, index) => {
			const queue = this.#queues[index]!;
			if (worker.state === 'revoked' || worker.state === 'stopped') {
				queue.close();
				return 'revoked' as SliceEnd;
			}
			const end = await runSlice({
				worker,
				queue,
				plan: (member) => this.#options.plan(member, worker),
				beforeChange: this.dryRun ? undefined : this.#options.beforeChange,
				reporter: this.progress.reporter(index),
				left: this.#left,
				reason: this.#options.reason,
				maxInFlight: this.#options.maxInFlight,
				retry: this.#options.retry,
				dryRun: this.dryRun,
				signal: this.signal,
				requestSignal: this.#requests.signal,
				guard: fleet.guard,
			});
			if (end === 'revoked') {
				stoppedWorkers.push(index);
				this.emit('workerStopped', worker);
			}
			return end;
		});
		let error: Error | undefined;
		try {
			await this.#list();
		} catch (listingError) {
			if (!this.signal.aborted) {
				error = listingError as Error;
				this.#controller.abort(error);
			}
		} finally {
			this.#listingDone = true;
			this.progress.listingFinished();
			for (const joiner of this.#deferredJoiners.splice(0)) if (BigInt(joiner.id) > this.#listedUpTo) this.#assign(joiner);
			for (const queue of this.#queues) queue.close();
		}
		const ends = await Promise.allSettled(slices);
		for (const end of ends) {
			if (end.status === 'rejected' && !error) error = end.reason as Error;
		}
		const state = error ? 'failed' : this.signal.aborted ? 'cancelled' : 'finished';
		if (error) logger.error({ err: error, job: this.id }, 'job failed');
		this.progress.end();
		this.#result = { state, stoppedWorkers, ...(error ? { error } : {}) };
		this.#setState(state);
		return this.#result;
	}

	async #list(): Promise<void> {
		const { fleet, guildId } = this.#options;
		const size = fleet.size;
		const pages = listMembers({
			guildId,
			rests: fleet.active.map((worker) => ({ rest: worker.client.rest, label: worker.label })),
			signal: this.signal,
			retry: this.#options.retry,
		});
		for await (const page of pages) {
			for (const member of page) {
				const index = workerIndexOf(member.id, size);
				if (fleet.workers[index]!.state === 'revoked') {
					this.progress.assigned(index);
					this.progress.reporter(index).failed('worker-stopped');
					continue;
				}
				this.#queues[index]!.push(member);
				this.progress.assigned(index);
			}
			this.#listedUpTo = BigInt(page[page.length - 1]!.id);
			for (const queue of this.#queues) this.#peakQueued = Math.max(this.#peakQueued, queue.size);
			await Promise.all(this.#queues.map((queue) => queue.waitForRoom()));
			this.signal.throwIfAborted();
		}
	}

	#setState(state: JobState): void {
		this.#state = state;
		this.emit('state', state);
	}
}
