import type { MemberRecord } from '../../discord/MemberRecord.js';
import { withSignal } from '../../util/withSignal.js';
import type { Worker } from '../../workers/Worker.js';
import type { BatchApply, BatchResult, MassAction } from '../MassAction.js';
import type { Progress } from '../Progress.js';
import { runBatchSlice } from '../runBatchSlice.js';
import { type PendingChange, runSlice, type SliceEnd, type SliceOptions, type SliceReporter } from '../runSlice.js';
import { ListingFeed } from './ListingFeed.js';
import { NON_MEMBER_LIMIT } from './NonMemberTally.js';
import type { SliceLayout } from './SliceLayout.js';

/** What every slice of one run shares: the run's plan, journal hook, signals and pacing. */
export interface SliceWork
	extends Pick<SliceOptions, 'plan' | 'beforeChange' | 'left' | 'refuse' | 'maxInFlight' | 'retry' | 'dryRun' | 'signal' | 'requestSignal' | 'guard'> {
	action: MassAction;
	/** Send the changes many at a time this way (the job's own changes, not a restore's); one by one without. */
	batch?: BatchApply | undefined;
	guildId: string;
	/** Audit-log reason sent with every change. */
	reason: string;
	/** The action said no further change can pass: the job ends. */
	fail: (error: Error) => void;
	/**
	 * Whether a call's failure means Discord takes no more users who are not members for now (see
	 * `NonMemberReach.limitReached`): its changes then count failed (`non-member-limit`), no other
	 * change of the job is held back by it, and the job is told (this function's own work).
	 */
	limit?: ((error: unknown) => boolean) | undefined;
	/** A slice cannot go on (the journal refused a write): the whole job stops, before the slice ends. */
	broke: (error: unknown) => void;
	/** Worker `id` stopped: out of service before its slice began, or `revoked` during it. */
	stopped: (id: number, revoked?: Worker) => void;
}

/**
 * Hands members to a job's slices and works each slice: a listed member or a joiner goes to its
 * owner's queue and counts for that worker; one whose worker another process holds counts as
 * elsewhere; one whose worker is out of service counts failed, `worker-stopped`, and is sent
 * nothing. Where each member goes is {@link SliceLayout}'s to say, the queues are the feed's.
 */
export class SliceDispatch {
	/** Each slice's worker, in layout order: none for a count's slice of a worker held elsewhere. */
	readonly #workers: ReadonlyArray<Worker | undefined>;

	/** `wrap`: each worker's reporter as the slices report into it (the job's own, by default). */
	constructor(
		readonly layout: SliceLayout,
		readonly feed: ListingFeed<MemberRecord>,
		readonly progress: Progress,
		workerOf: (id: number) => Worker | undefined,
		readonly wrap: (reporter: SliceReporter) => SliceReporter = (reporter) => reporter,
	) {
		this.#workers = layout.ids.map(workerOf);
	}

	/**
	 * A job's dispatch over `layout`'s slices, each queue holding what keeps its worker busy and,
	 * for an action that sends in batches (`batchSize`), a whole batch before the listing waits,
	 * so its batches fill.
	 */
	static of(options: {
		layout: SliceLayout;
		maxInFlight: number;
		batchSize: number | undefined;
		progress: Progress;
		workerOf: (id: number) => Worker | undefined;
	}): SliceDispatch {
		const { layout, maxInFlight } = options;
		const capacity = Math.max(layout.queueCapacity(maxInFlight), options.batchSize ?? 0);
		const feed = new ListingFeed<MemberRecord>({ slices: layout.ids.length, capacity, maxInFlight });
		return new SliceDispatch(layout, feed, options.progress, options.workerOf);
	}

	/** A member the listing handed out; `false` when its worker runs in another process. */
	listed(member: MemberRecord): boolean {
		const place = this.layout.placeOf(member.id);
		if (place < 0) {
			this.progress.elsewhere();
			return false;
		}
		const id = this.layout.ids[place]!;
		this.progress.assigned(id);
		if (isOutOfService(this.#workers[place])) this.#reporter(id).failed('worker-stopped');
		else this.feed.queue(place).push(member);
		return true;
	}

	/**
	 * A joiner the job assigns itself, or a member who changed: dropped if their slice already
	 * ended (a rerun takes them) or another process holds their worker (that process's job takes
	 * them, if its boss saw the join). Each is followed to their outcome from `heardAt`, when their
	 * event happened: by default their join (`joinedAt`), else now (see `Progress.followed`).
	 */
	joined(member: MemberRecord, heardAt: number = member.joinedAt ?? this.progress.now()): void {
		const place = this.layout.placeOf(member.id);
		if (place < 0 || this.feed.sliceEnded(place)) return;
		const id = this.layout.ids[place]!;
		if (isOutOfService(this.#workers[place])) {
			this.progress.assigned(id);
			this.progress.followed.track(member.id, heardAt);
			this.#reporter(id).failed('worker-stopped', member.id);
		} else if (this.feed.queue(place).push(member)) {
			this.progress.assigned(id);
			this.progress.followed.track(member.id, heardAt);
		}
	}

	/** Works the slice at `place` until its queue is drained, the job stops or its token is revoked. */
	async work(place: number, work: SliceWork): Promise<SliceEnd> {
		const id = this.layout.ids[place]!;
		const worker = this.#workers[place];
		const queue = this.feed.queue(place);
		if (isOutOfService(worker)) {
			this.feed.endSlice(place);
			queue.close();
			work.stopped(id);
			return 'revoked';
		}
		const { action, batch, guildId, reason, fail, limit, broke, stopped, maxInFlight, ...slice } = work;
		// A count's slice of a worker held elsewhere sends nothing, so it needs no worker.
		const common = { ...slice, worker: worker ?? NO_WORKER, queue, reporter: this.#reporter(id) };
		try {
			const end = batch
				? await runBatchSlice({ ...common, size: batch.size, send: (changes, signal) => sendBatch(work, batch, worker!, changes, signal) })
				: await runSlice({ ...common, maxInFlight, apply: (change, signal) => apply(work, worker!, change, signal) });
			if (end === 'revoked' && worker) stopped(id, worker);
			return end;
		} catch (error) {
			broke(error);
			throw error;
		} finally {
			// Its queue no longer holds the listing back.
			this.feed.endSlice(place);
		}
	}

	#reporter(id: number): SliceReporter {
		return this.wrap(this.progress.reporter(id));
	}
}

/**
 * Sends one change with `worker`'s token. A short-lived signal per request: discord.js adds a
 * listener to the signal it gets and never removes it, so the job-long signal would gain one per
 * change.
 */
function apply({ action, guildId, reason, fail, limit }: SliceWork, worker: Worker, change: PendingChange, signal: AbortSignal): Promise<void> {
	return withSignal(signal, (own) => action.apply({ rest: worker.client.rest, guildId }, change.id, change.to, { reason, signal: own! })).catch(
		(error: unknown) => {
			// The job is told; the change counts failed with Discord's code.
			limit?.(error);
			return endsJobOn(action, fail, error);
		},
	);
}

/**
 * Sends one batch of changes with `worker`'s token, as {@link apply} sends one. A call Discord
 * refuses for its limit on users who are not members is answered here: each of its changes failed.
 */
function sendBatch(
	{ action, guildId, reason, fail, limit }: SliceWork,
	batch: BatchApply,
	worker: Worker,
	changes: readonly PendingChange[],
	signal: AbortSignal,
): Promise<BatchResult> {
	return withSignal(signal, (own) => batch.send({ rest: worker.client.rest, guildId }, changes, { reason, signal: own! })).catch((error: unknown) => {
		if (limit?.(error)) return { failed: new Map(changes.map((change) => [change.id, NON_MEMBER_LIMIT])) };
		return endsJobOn(action, fail, error);
	});
}

/** One answer that says no other change can pass ends the job, not a flood of the same; rethrows it for the slice. */
function endsJobOn(action: MassAction, fail: (error: Error) => void, error: unknown): never {
	const fatal = action.endsJob?.(error);
	if (fatal) fail(fatal);
	throw error;
}

/** A worker whose token was revoked, or that stopped: its members are counted, never sent. */
function isOutOfService(worker: { readonly state: string } | undefined): boolean {
	return worker !== undefined && (worker.state === 'revoked' || worker.state === 'stopped');
}

/** The worker of a count's slice whose worker runs elsewhere: a dry run never revokes it. */
const NO_WORKER = { markRevoked(): void {} };
