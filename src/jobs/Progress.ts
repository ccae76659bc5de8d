import { EventEmitter } from 'node:events';
import { FollowedTally } from './job/FollowedTally.js';
import { RateMeter } from './RateMeter.js';
import type { Outcome, SliceReporter } from './runSlice.js';

/** One worker's counters. */
export interface WorkerCounts {
	/** Members of its slice the listing handed it so far. */
	inSlice: number;
	changed: number;
	alreadyDone: number;
	/** Out of the workers' reach: the owner, members ranked at or above the bots. */
	cant: number;
	/** Within the workers' reach but ranked at or above the job's requester: left alone, no request. */
	aboveRequester: number;
	/** Left alone on purpose: role filters, our own bots, members whose value changed since the job. */
	skipped: number;
	/** Left the guild during the job; nothing was sent for them after they left. */
	left: number;
	/** Failed, by reason ('missing-permissions', 'http-502', 'timeout', 'worker-stopped', …). */
	failed: Record<string, number>;
	inFlight: number;
}

export interface WorkerSnapshot extends WorkerCounts {
	/** The worker's id among all the fleet's workers (not its place in `workers`). */
	index: number;
	failedTotal: number;
	/** Members of the slice with an outcome (changed, done, can't, above the requester, skipped, left or failed). */
	done: number;
	/**
	 * Members handed to the worker and not yet sent: waiting in its queue (or, for a batching
	 * action, in a batch being journaled). Neither done nor in flight.
	 */
	queued: number;
	/** Changes per second over the last 30 s. */
	rate: number;
	/** Milliseconds to go at the current rate, or `null` when nothing moves. */
	etaMs: number | null;
}

export interface ProgressSnapshot {
	workers: WorkerSnapshot[];
	/** Members handed to the workers so far (all of them once `listingDone`). */
	total: number;
	/**
	 * Members listed whose worker runs in another process: not this job's, and in no other count.
	 * Always 0 in a process that holds every worker.
	 */
	elsewhere: number;
	done: number;
	remaining: number;
	changed: number;
	alreadyDone: number;
	cant: number;
	aboveRequester: number;
	skipped: number;
	left: number;
	failed: number;
	failedByReason: Record<string, number>;
	inFlight: number;
	listingDone: boolean;
	/** Changes per second, all workers together. */
	rate: number;
	elapsedMs: number;
	etaMs: number | null;
}

/** What a job's progress tells as each count is made, with the worker's id among the fleet's. */
export interface ProgressEvents {
	/** One member's outcome in worker `worker`'s slice (on a dry run, `changed` is only planned). */
	outcome: [worker: number, outcome: Outcome];
	/** A member worker `worker` could not change, and why (`missing-permissions`, `http-502`, …). */
	failure: [worker: number, reason: string];
	/**
	 * A joiner or a member who changed, taken on their own event (see {@link FollowedTally}), was
	 * changed by worker `worker`: `latencyMs` from their join (or their change reaching us) to the change landing.
	 */
	followed: [worker: number, latencyMs: number];
}

/**
 * A job's counters, per worker. Only counters: the members themselves are in the guild and the
 * journal, so a restart loses nothing but these, and a rerun rebuilds them from the live guild.
 *
 * Workers are known by their ids: `3` is worker 3 of the fleet, whichever others this process holds.
 * Each count is also told as an event (see {@link ProgressEvents}), for the metrics.
 */
export class Progress extends EventEmitter<ProgressEvents> {
	/** The members taken on their own event (joiners, members who changed) and what became of them. */
	readonly followed: FollowedTally;
	readonly #ids: readonly number[];
	/** Worker id → its place in the arrays below. */
	readonly #places: ReadonlyMap<number, number>;
	readonly #workers: WorkerCounts[];
	readonly #meters: RateMeter[];
	readonly #startedAt: number;
	#elsewhere = 0;
	#listingDone = false;
	#endedAt: number | undefined;

	/** `workers`: the ids of the workers counted, or how many (ids 0 to n-1). */
	constructor(
		workers: number | readonly number[],
		readonly now: () => number = Date.now,
	) {
		super();
		this.#ids = typeof workers === 'number' ? Array.from({ length: workers }, (_, id) => id) : [...workers];
		this.#places = new Map(this.#ids.map((id, place) => [id, place]));
		const workerCount = this.#ids.length;
		this.#startedAt = now();
		this.#workers = Array.from({ length: workerCount }, () => ({
			inSlice: 0,
			changed: 0,
			alreadyDone: 0,
			cant: 0,
			aboveRequester: 0,
			skipped: 0,
			left: 0,
			failed: {},
			inFlight: 0,
		}));
		this.#meters = Array.from({ length: workerCount }, () => new RateMeter(30, now));
		this.followed = new FollowedTally(now);
	}

	/** The listing handed worker `index` one more member. */
	assigned(index: number): void {
		this.#counts(index).inSlice++;
	}

	/** The listing passed a member another process's worker owns. */
	elsewhere(): void {
		this.#elsewhere++;
	}

	/** The listing is over: `total` is final. */
	listingFinished(): void {
		this.#listingDone = true;
	}

	/** The job ended: the clock stops. */
	end(): void {
		this.#endedAt ??= this.now();
		this.followed.clear();
	}

	/** What a worker's slice reports into; a member's id, where given, settles them in {@link followed}. */
	reporter(index: number): SliceReporter {
		const counts = this.#counts(index);
		const meter = this.#meters[this.#places.get(index)!]!;
		return {
			outcome: (outcome: Outcome, memberId?: string) => {
				counts[outcome]++;
				if (outcome === 'changed') meter.add();
				this.emit('outcome', index, outcome);
				const latencyMs = memberId === undefined ? undefined : this.followed.settled(memberId, outcome);
				if (latencyMs !== undefined) this.emit('followed', index, latencyMs);
			},
			failed: (reason: string, memberId?: string) => {
				counts.failed[reason] = (counts.failed[reason] ?? 0) + 1;
				this.emit('failure', index, reason);
				if (memberId !== undefined) this.followed.settled(memberId, 'failed');
			},
			inFlight: (delta: number) => {
				counts.inFlight += delta;
			},
		};
	}

	snapshot(): ProgressSnapshot {
		const now = this.#endedAt ?? this.now();
		const workers = this.#workers.map((counts, place): WorkerSnapshot => {
			const failedTotal = sum(Object.values(counts.failed));
			const done = counts.changed + counts.alreadyDone + counts.cant + counts.aboveRequester + counts.skipped + counts.left + failedTotal;
			const rate = this.#endedAt === undefined ? this.#meters[place]!.perSecond(this.#startedAt) : 0;
			const remaining = Math.max(0, counts.inSlice - done);
			return {
				...counts,
				failed: { ...counts.failed },
				index: this.#ids[place]!,
				failedTotal,
				done,
				queued: Math.max(0, remaining - counts.inFlight),
				rate,
				etaMs: eta(remaining, rate, this.#listingDone),
			};
		});
		const failedByReason: Record<string, number> = {};
		for (const worker of workers) {
			for (const [reason, count] of Object.entries(worker.failed)) failedByReason[reason] = (failedByReason[reason] ?? 0) + count;
		}
		const total = sum(workers.map((worker) => worker.inSlice));
		const done = sum(workers.map((worker) => worker.done));
		const rate = sum(workers.map((worker) => worker.rate));
		const remaining = Math.max(0, total - done);
		return {
			workers,
			total,
			elsewhere: this.#elsewhere,
			done,
			remaining,
			changed: sum(workers.map((worker) => worker.changed)),
			alreadyDone: sum(workers.map((worker) => worker.alreadyDone)),
			cant: sum(workers.map((worker) => worker.cant)),
			aboveRequester: sum(workers.map((worker) => worker.aboveRequester)),
			skipped: sum(workers.map((worker) => worker.skipped)),
			left: sum(workers.map((worker) => worker.left)),
			failed: sum(workers.map((worker) => worker.failedTotal)),
			failedByReason,
			inFlight: sum(workers.map((worker) => worker.inFlight)),
			listingDone: this.#listingDone,
			rate,
			elapsedMs: now - this.#startedAt,
			etaMs: eta(remaining, rate, this.#listingDone),
		};
	}

	#counts(index: number): WorkerCounts {
		const place = this.#places.get(index);
		if (place === undefined) throw new RangeError(`no worker ${index}`);
		return this.#workers[place]!;
	}
}

/**
 * Milliseconds to go at `rate`: `null` when nothing moves, or when all that was handed out is done
 * but the listing may still hand out more (0 would read as "finished").
 */
function eta(remaining: number, rate: number, listingDone: boolean): number | null {
	if (remaining === 0) return listingDone ? 0 : null;
	return rate > 0 ? (remaining / rate) * 1000 : null;
}

function sum(values: number[]): number {
	let total = 0;
	for (const value of values) total += value;
	return total;
}
