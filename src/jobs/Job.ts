import { EventEmitter, setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { workerIndexOf } from '../workers/partition.js';
import type { Fleet } from '../workers/Fleet.js';
import type { Worker } from '../workers/Worker.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { type ListingClient, listMembers } from './listMembers.js';
import type { MassAction } from './MassAction.js';
import type { Plan } from './Plan.js';
import type { MemberFilters } from './planner.js';
import { Progress } from './Progress.js';
import { type PendingChange, runSlice, type SliceEnd } from './runSlice.js';
import { hasRoomForNextPage } from './job/pageRoom.js';
import { WorkQueue } from './WorkQueue.js';
import { whenAborted } from '../util/whenAborted.js';
import { withSignal } from '../util/withSignal.js';

/** How many listed pages' ids a job remembers to tell a late join event from a new member. */
const RECENT_PAGES = 16;

/** A job's life: planned → running → finished | failed, or running → cancelling → cancelled. */
export type JobState = 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';

/** `apply`: the action's change (or a count, as a dry run); `restore`: its undo from the journal. */
export type JobMode = 'apply' | 'restore';

export interface JobEvents {
	state: [state: JobState];
	/** A worker stopped for good mid-run (its token was revoked). */
	workerStopped: [worker: Worker];
}

export interface JobOptions {
	id: string;
	/** What the job changes, and how: the engine asks it to apply each change. */
	action: MassAction;
	mode: JobMode;
	dryRun: boolean;
	startedBy: { id: string; tag: string };
	/**
	 * The workers of this process. The job takes only the members its workers own; those of
	 * workers held by other processes are counted as `elsewhere` and left to them.
	 */
	fleet: Fleet;
	/**
	 * Plan every member of the guild, whichever process holds its worker: for a count (a dry run
	 * sends nothing, so it needs no worker). Default false.
	 */
	wholeGuild?: boolean | undefined;
	/** The bots that page through the member list: those whose application has the members intent. */
	listers: readonly ListingClient[];
	guildId: string;
	/** Who the job is about besides its action (for a count of it later); the plan applies them. */
	filters?: MemberFilters | undefined;
	/** Plans one member. Pure; see planner.ts. */
	plan: (member: MemberRecord) => Plan;
	/** Durably records changes before they go out (the journal); skipped on a dry run. */
	beforeChange?: ((changes: PendingChange[]) => Promise<void>) | undefined;
	/** Audit-log reason sent with every change. */
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
	/** Workers (by id) whose token was revoked during the run. */
	stoppedWorkers: number[];
}

/**
 * One run of a mass action, or of its restore, or their dry runs, over the whole guild.
 *
 * There is no coordinator: the listing hands each member to the worker that owns it by the
 * snowflake rule, and each worker decides alone. A process that holds only some of the workers
 * lists the whole guild too and takes only its workers' members, so processes that each hold
 * some of the ids together cover the guild once, without talking to each other. The job is a
 * state machine with an `AbortSignal` for /cancel; it keeps only counters and the bounded queues
 * in memory.
 */
export class Job extends EventEmitter<JobEvents> {
	readonly id: string;
	readonly action: MassAction;
	readonly mode: JobMode;
	readonly dryRun: boolean;
	readonly startedBy: { id: string; tag: string };
	/** Who the job is about besides its action: `{}` for everyone. */
	readonly filters: MemberFilters;
	readonly progress: Progress;
	readonly startedAt: number;
	#state: JobState = 'planned';
	#result: JobResult | undefined;
	readonly #options: Omit<JobOptions, 'plan' | 'beforeChange'>;
	readonly #controller = new AbortController();
	/** Set by {@link fail}: why the job stopped before its end. */
	#failure: Error | undefined;
	readonly #requests = new AbortController();
	/** Joiners seen while the listing was still running, above where it had reached, by id. */
	readonly #deferredJoiners = new Map<string, MemberRecord>();
	/**
	 * The ids of the last pages listed: a join event that arrives after the page holding the
	 * member (the gateway and REST race; a resume replays late) must not assign them twice.
	 * Bounded: {@link RECENT_PAGES} pages of 1000 ids.
	 */
	#recentPages: Array<Set<string>> = [];
	/** One slice per worker id this job works, in {@link #slices} order. */
	readonly #slices: ReadonlyArray<{ id: number; worker: Worker | undefined }>;
	/** Worker id → its slice's place, or -1 for a worker another process holds. */
	readonly #placeOf: Int32Array;
	readonly #queues: WorkQueue<MemberRecord>[];
	/** Which slices have ended: a joiner for one of them is left for the next run. */
	readonly #sliceEnded: boolean[];
	/** Dropped when the run ends, so an ended job kept for /status holds no journal index. */
	#plan: JobOptions['plan'] | undefined;
	#beforeChange: JobOptions['beforeChange'];
	readonly #left = new Set<string>();
	/** The highest member id the listing has handed out; joiners above it are its to find. */
	#listedUpTo = 0n;
	#listingDone = false;
	#peakQueued = 0;
	/** A queue this short lets the next page in (see `hasRoomForNextPage`). */
	readonly #lowWater: number;
	/** The listing, waiting for room before its next page. */
	#listingWaiter: (() => void) | undefined;

	constructor(options: JobOptions) {
		super();
		// The planner and the journal hook close over the journal's index: kept apart so they can be
		// dropped when the run ends (see #plan).
		const { plan, beforeChange, ...rest } = options;
		this.#options = rest;
		this.id = options.id;
		this.action = options.action;
		this.mode = options.mode;
		this.dryRun = options.dryRun;
		this.startedBy = options.startedBy;
		this.filters = options.filters ?? {};
		const now = options.now ?? Date.now;
		this.startedAt = now();
		const { fleet } = options;
		if (options.wholeGuild && !options.dryRun) throw new RangeError('only a dry run may plan members whose worker runs elsewhere');
		this.#slices = options.wholeGuild
			? Array.from({ length: fleet.count }, (_, id) => ({ id, worker: fleet.get(id) }))
			: fleet.workers.map((worker) => ({ id: worker.index, worker }));
		this.#placeOf = new Int32Array(fleet.count).fill(-1);
		this.#slices.forEach(({ id }, place) => (this.#placeOf[id] = place));
		this.progress = new Progress(
			this.#slices.map(({ id }) => id),
			now,
		);
		this.#plan = plan;
		this.#beforeChange = beforeChange;
		this.#sliceEnded = this.#slices.map(() => false);
		const slices = Math.max(1, this.#slices.length);
		// Each slice listens for cancel, and each change in flight for its own request's sake: a
		// bounded number (workers × in flight), more than Node's default warning level of 10.
		const listeners = slices * (options.maxInFlight + 4) + 10;
		setMaxListeners(listeners, this.#controller.signal, this.#requests.signal);
		// Room for two pages' share on top of what is in flight: a worker finds 1000 ÷ the fleet's
		// workers of each page, wherever the others run. (Sized by this process's slices, a pod
		// holding one worker of 49 would list a hundred pages before its first change, with the
		// other pods on the same listing token.)
		const capacity = Math.max(options.maxInFlight * 4, Math.ceil(2000 / Math.max(1, fleet.count)));
		this.#lowWater = options.maxInFlight * 2;
		this.#queues = this.#slices.map(() => new WorkQueue<MemberRecord>(capacity, () => this.#wakeListing()));
	}

	/** What the job sets, as the journal keeps it (a template, a role id). */
	get target(): string {
		return this.action.target;
	}

	/** The job for people: `Adding @Event`, `Taking @Event back from the members who got it`. */
	get title(): string {
		return this.mode === 'apply' ? this.action.words.doing : this.action.words.undoing;
	}

	get state(): JobState {
		return this.#state;
	}

	get result(): JobResult | undefined {
		return this.#result;
	}

	/** Resolves with the result once the run has ended (at once if it has). */
	ended(): Promise<JobResult> {
		const result = this.#result;
		if (result) return Promise.resolve(result);
		return new Promise((resolve) => {
			const onState = (): void => {
				if (!this.#result) return;
				this.off('state', onState);
				resolve(this.#result);
			};
			this.on('state', onState);
		});
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

	/**
	 * Ends the job as failed with `error`, for something no further change can get past (the
	 * action's {@link MassAction.endsJob}, or Discord telling of its role deleted): no new member is
	 * taken, and the requests still waiting in discord.js (on a rate-limit reset, mostly) are
	 * dropped at once, unlike a cancel's grace: each would only be refused. The result carries
	 * `error` for the channel and the log. The first such error is kept; a cancel or an ended job wins.
	 */
	fail(error: Error): void {
		if (this.#state !== 'running' && this.#state !== 'planned') return;
		if (this.#failure || this.signal.aborted) return;
		this.#failure = error;
		this.#options.logger.warn({ job: this.id, reason: error.message }, 'job stopping: no further change can succeed');
		this.#controller.abort(error);
		for (const queue of this.#queues) queue.close();
		this.#requests.abort(error);
	}

	/** A member joined while the job runs: its owner takes it, unless the listing will reach it. */
	memberJoined(member: MemberRecord): void {
		this.#left.delete(member.id);
		if (this.#state !== 'running') return;
		if (this.#listedRecently(member.id)) return;
		if (!this.#listingDone && BigInt(member.id) > this.#listedUpTo) {
			// The listing should reach them; whether it did is settled page by page (#settleJoiners).
			this.#deferredJoiners.set(member.id, member);
			return;
		}
		this.#assign(member);
	}

	/**
	 * Hands a joiner to its worker, unless that slice already ended (a rerun takes them) or
	 * another process holds the worker (that process's job takes them, if its boss saw the join).
	 */
	#assign(member: MemberRecord): void {
		const place = this.#placeOf[workerIndexOf(member.id, this.#placeOf.length)]!;
		if (place < 0 || this.#sliceEnded[place]) return;
		const { id, worker } = this.#slices[place]!;
		if (isOutOfService(worker)) {
			this.progress.assigned(id);
			this.progress.reporter(id).failed('worker-stopped');
		} else if (this.#queues[place]!.push(member)) this.progress.assigned(id);
	}

	#listedRecently(id: string): boolean {
		return this.#recentPages.some((page) => page.has(id));
	}

	/**
	 * Joiners whose id the listing has now passed: those in the page were listed; the others
	 * joined after their page was read, so the listing never saw them and they are assigned here.
	 */
	#settleJoiners(upTo: bigint | undefined): void {
		for (const [id, member] of this.#deferredJoiners) {
			if (upTo !== undefined && BigInt(id) > upTo) continue;
			this.#deferredJoiners.delete(id);
			if (!this.#listedRecently(id)) this.#assign(member);
		}
	}

	/** A member left: nothing more is sent for them, and they count as left, not failed. */
	memberLeft(memberId: string): void {
		if (this.#state === 'running' || this.#state === 'planned') this.#left.add(memberId);
	}

	/** Runs the job to its end; never throws (the result says how it ended). */
	async run(): Promise<JobResult> {
		const { fleet, logger } = this.#options;
		// Cancelled before it ran: it goes straight to its end, never back to running.
		if (this.#state !== 'cancelling') this.#setState('running');
		const stoppedWorkers: number[] = [];
		const slices = this.#slices.map(async ({ id, worker }, place): Promise<SliceEnd> => {
			const queue = this.#queues[place]!;
			if (isOutOfService(worker)) {
				this.#sliceEnded[place] = true;
				queue.close();
				stoppedWorkers.push(id);
				return 'revoked';
			}
			try {
				const guildId = this.#options.guildId;
				const reason = this.#options.reason;
				const end = await runSlice({
					// A count's slice of a worker held elsewhere sends nothing, so it needs no worker.
					worker: worker ?? NO_WORKER,
					queue,
					plan: (member) => this.#plan!(member),
					// A short-lived signal per request: discord.js adds a listener to the signal it gets and
					// never removes it, so the job-long signal would gain one per change.
					apply: (change, signal) =>
						withSignal(signal, (own) => this.action.apply({ rest: worker!.client.rest, guildId }, change.id, change.to, { reason, signal: own! })).catch(
							(error: unknown) => {
								// One answer that says no other change can pass ends the job, not a flood of the same.
								const fatal = this.action.endsJob?.(error);
								if (fatal) this.fail(fatal);
								throw error;
							},
						),
					beforeChange: this.dryRun ? undefined : this.#beforeChange,
					reporter: this.progress.reporter(id),
					left: this.#left,
					maxInFlight: this.#options.maxInFlight,
					retry: this.#options.retry,
					dryRun: this.dryRun,
					signal: this.signal,
					requestSignal: this.#requests.signal,
					guard: fleet.guard,
				});
				if (end === 'revoked' && worker) {
					stoppedWorkers.push(id);
					this.emit('workerStopped', worker);
				}
				return end;
			} catch (error) {
				// A slice that cannot go on (the journal refused a write) stops the whole job, and
				// the listing must not wait for room in its queue.
				this.#controller.abort(error);
				for (const other of this.#queues) other.close();
				throw error;
			} finally {
				this.#sliceEnded[place] = true;
				// Its queue no longer holds the listing back.
				this.#wakeListing();
			}
		});
		// Handled from the start: a slice may fail while the listing still sleeps in discord.js.
		const ends = Promise.allSettled(slices);
		let error: Error | undefined;
		const listing = this.#list().catch((listingError: unknown) => {
			if (!this.signal.aborted) {
				error = listingError as Error;
				this.#controller.abort(error);
			}
		});
		// After a cancel's grace period a page may still sleep inside discord.js until a rate-limit
		// reset; it can change nothing, so the job does not wait for it.
		await Promise.race([listing, whenAborted(this.#requests.signal)]);
		this.#listingDone = true;
		this.progress.listingFinished();
		this.#settleJoiners(undefined);
		for (const queue of this.#queues) queue.close();
		for (const end of await ends) {
			if (end.status === 'rejected' && !error) error = end.reason as Error;
		}
		error ??= this.#failure;
		const state = error ? 'failed' : this.signal.aborted ? 'cancelled' : 'finished';
		if (error) logger.error({ err: error, job: this.id }, 'job failed');
		this.progress.end();
		this.#plan = undefined;
		this.#beforeChange = undefined;
		this.#deferredJoiners.clear();
		this.#recentPages = [];
		this.#result = { state, stoppedWorkers, ...(error ? { error } : {}) };
		this.#setState(state);
		return this.#result;
	}

	async #list(): Promise<void> {
		const { guildId, listers } = this.#options;
		const count = this.#placeOf.length;
		const reporters = this.#slices.map(({ id }) => this.progress.reporter(id));
		const pages = listMembers({
			guildId,
			rests: listers,
			signal: this.signal,
			retry: this.#options.retry,
		});
		for await (const page of pages) {
			for (const member of page) {
				const place = this.#placeOf[workerIndexOf(member.id, count)]!;
				if (place < 0) {
					this.progress.elsewhere();
					continue;
				}
				const { id, worker } = this.#slices[place]!;
				this.progress.assigned(id);
				if (isOutOfService(worker)) reporters[place]!.failed('worker-stopped');
				else this.#queues[place]!.push(member);
			}
			this.#recentPages.push(new Set(page.map((member) => member.id)));
			if (this.#recentPages.length > RECENT_PAGES) this.#recentPages.shift();
			this.#listedUpTo = BigInt(page[page.length - 1]!.id);
			this.#settleJoiners(this.#listedUpTo);
			for (const queue of this.#queues) this.#peakQueued = Math.max(this.#peakQueued, queue.size);
			await this.#roomForNextPage();
			this.signal.throwIfAborted();
		}
	}

	/** Waits until the next page may be fetched (see `hasRoomForNextPage`). */
	async #roomForNextPage(): Promise<void> {
		const open = (): Array<{ size: number; capacity: number }> => this.#queues.filter((queue, place) => !queue.closed && !this.#sliceEnded[place]);
		while (!hasRoomForNextPage(open(), this.#lowWater)) {
			await new Promise<void>((resolve) => {
				this.#listingWaiter = resolve;
			});
		}
	}

	/** A queue shrank or closed: the listing looks again whether it may go on. */
	#wakeListing(): void {
		const wake = this.#listingWaiter;
		this.#listingWaiter = undefined;
		wake?.();
	}

	#setState(state: JobState): void {
		this.#state = state;
		this.emit('state', state);
	}
}

/** A worker whose token was revoked, or that stopped: its members are counted, never sent. */
function isOutOfService(worker: { readonly state: string } | undefined): boolean {
	return worker !== undefined && (worker.state === 'revoked' || worker.state === 'stopped');
}

/** The worker of a count's slice whose worker runs elsewhere: a dry run never revokes it. */
const NO_WORKER = { markRevoked(): void {} };
