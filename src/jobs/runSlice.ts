import type { InvalidRequestGuard } from '../discord/InvalidRequestGuard.js';
import type { WriteAdmission } from '../discord/SharedWritePacer.js';
import { type RetryPolicy, retryTransient } from '../discord/retryTransient.js';
import { whenAborted } from '../util/whenAborted.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { ABOVE_REQUESTER } from './GuildContext.js';
import type { Plan, RestoreEntry } from './Plan.js';
import { takeOrAbort } from './takeOrAbort.js';
import type { WorkQueue } from './WorkQueue.js';

/** The outcomes a slice counts; failures carry a reason of their own. */
export type Outcome = 'changed' | 'alreadyDone' | 'cant' | 'aboveRequester' | 'skipped' | 'left';

/**
 * Where a slice reports what happened to each member, with the member's id where the slice has it
 * (a member taken on their own event is then settled, see `FollowedTally`).
 */
export interface SliceReporter {
	outcome(outcome: Outcome, memberId?: string): void;
	failed(reason: string, memberId?: string): void;
	inFlight(delta: number): void;
}

/** A change about to go out: the member, their value now, and the one the job sets. */
export type PendingChange = RestoreEntry;

/** What a slice needs of its worker besides the change itself. */
export interface SliceWorker {
	/** Discord rejected the worker's token: it stops for good. */
	markRevoked(): void;
	/** What its changes wait on when the guild caps writes for every bot (the process's shared pace). */
	readonly writes?: WriteAdmission | undefined;
}

export interface SliceOptions {
	worker: SliceWorker;
	queue: WorkQueue<MemberRecord>;
	/** The pure decision for one member (change, done, can't, skip). */
	plan: (member: MemberRecord) => Plan;
	/** Sends one change with the worker's token (the action's request). */
	apply: (change: PendingChange, signal: AbortSignal) => Promise<void>;
	/**
	 * Durably records changes before they are sent (the journal of originals); resolves once on
	 * disk. Concurrent calls are grouped into one write by the journal. Not called on a dry run.
	 */
	beforeChange?: ((changes: PendingChange[]) => Promise<void>) | undefined;
	reporter: SliceReporter;
	/** Ids that left the guild since the job started: nothing is sent for them. */
	left: ReadonlySet<string>;
	/**
	 * Why no change may go out now, or `undefined` when it may: asked for each change planned, which
	 * is then counted failed with that reason, neither journaled nor sent (Discord takes no more
	 * users who are not members, see `NonMemberReach`). Members done or left alone count as ever.
	 */
	refuse?: (() => string | undefined) | undefined;
	maxInFlight: number;
	/** Retrying a change that failed for a reason that may pass (5xx, time-out). */
	retry: RetryPolicy;
	dryRun: boolean;
	/** Aborted on cancel: take no new member, start no retry. */
	signal: AbortSignal;
	/**
	 * Aborted a grace period after `signal`: drops the requests still waiting in discord.js's
	 * queue for a rate-limit reset. Requests that go out within the grace period finish.
	 */
	requestSignal: AbortSignal;
	guard: InvalidRequestGuard;
}

/** How a slice ended: drained its queue, was cancelled, or its token was revoked. */
export type SliceEnd = 'drained' | 'cancelled' | 'revoked';

/**
 * Works one worker's slice: takes members from its queue, plans each, and changes those that
 * need it with at most `maxInFlight` changes planned ahead or on the wire.
 *
 * discord.js sends one request per rate-limit bucket at a time and waits on Discord's headers,
 * so keeping a few changes queued ahead is what holds the token at its full allowed rate.
 */
export async function runSlice(options: SliceOptions): Promise<SliceEnd> {
	const { queue, reporter, signal } = options;
	// This slice stops taking members on cancel, on a revoked token, or when the journal fails.
	const stop = new AbortController();
	const onCancel = (): void => stop.abort();
	signal.addEventListener('abort', onCancel, { once: true });
	if (signal.aborted) onCancel();
	let revoked = false;
	let failure: unknown;
	let inFlight = 0;
	/** Set once the slice stops waiting for its requests: those still held no longer count in flight. */
	let abandoned = false;
	const pending = new Set<Promise<void>>();
	// One waiter, woken when a change settles or the slice stops: a race against a promise that
	// stays pending all job long would keep a reaction per change alive.
	let wake: (() => void) | undefined;
	const wakeUp = (): void => {
		const resolve = wake;
		wake = undefined;
		resolve?.();
	};
	stop.signal.addEventListener('abort', wakeUp, { once: true });

	// discord.js learns a route's rate-limit bucket from the first response and then moves the
	// route to a new queue; requests queued before that drain through the old one in parallel
	// with the new, and together they overrun the bucket. So the first change goes out alone.
	let learned = false;
	while (!stop.signal.aborted) {
		while (inFlight >= (learned ? options.maxInFlight : 1) && !stop.signal.aborted) {
			await new Promise<void>((resolve) => {
				wake = resolve;
			});
		}
		if (stop.signal.aborted) break;
		const member = await takeOrAbort(queue, stop.signal);
		if (member === undefined) break;
		const plan = options.plan(member);
		switch (plan.action) {
			case 'done':
				reporter.outcome('alreadyDone', member.id);
				continue;
			case 'cant':
				reporter.outcome(plan.reason === ABOVE_REQUESTER ? 'aboveRequester' : 'cant', member.id);
				continue;
			case 'skip':
				reporter.outcome('skipped', member.id);
				continue;
		}
		if (options.left.has(member.id)) {
			reporter.outcome('left', member.id);
			continue;
		}
		const refused = options.refuse?.();
		if (refused !== undefined) {
			reporter.failed(refused, member.id);
			continue;
		}
		if (options.dryRun) {
			reporter.outcome('changed', member.id);
			continue;
		}
		inFlight++;
		reporter.inFlight(1);
		const task: Promise<void> = applyChange(options, { id: member.id, from: plan.from, to: plan.to })
			.then(
				(end) => {
					if (end === 'revoked') {
						revoked = true;
						stop.abort();
					}
				},
				(error: unknown) => {
					failure ??= error;
					stop.abort();
				},
			)
			.finally(() => {
				inFlight--;
				learned = true;
				if (!abandoned) reporter.inFlight(-1);
				pending.delete(task);
				wakeUp();
			});
		pending.add(task);
	}
	signal.removeEventListener('abort', onCancel);
	// After a cancel, stop waiting once the grace period ends: what discord.js still holds then
	// is waiting on a rate-limit reset and will be dropped unsent when it wakes (its signal is
	// aborted), so it can no longer change anything.
	await Promise.race([Promise.allSettled(pending), whenAborted(options.requestSignal)]);
	// A slice that has ended has nothing in flight, even while discord.js still holds what it drops.
	if (inFlight > 0) {
		abandoned = true;
		reporter.inFlight(-inFlight);
	}
	if (failure !== undefined) throw failure;
	if (revoked) {
		queue.close();
		// What the stopped worker still held is not done: a rerun without its token does it.
		for (let dropped = queue.clear(); dropped > 0; dropped--) reporter.failed('worker-stopped');
		return 'revoked';
	}
	return signal.aborted ? 'cancelled' : 'drained';
}

/** Journals one change, then sends it, retrying what may pass; `'revoked'` if the token died. */
async function applyChange(options: SliceOptions, change: PendingChange): Promise<'revoked' | undefined> {
	const { worker, reporter, requestSignal } = options;
	try {
		await options.beforeChange?.([change]);
	} catch (error) {
		// Nothing is changed unless its original is safely on disk: the job stops.
		reporter.failed('journal-write', change.id);
		throw error;
	}
	const result = await retryTransient(
		async () => {
			// Checked before every try: a member may leave while a retry waits.
			if (options.left.has(change.id)) return 'left' as const;
			await options.guard.ready(requestSignal);
			const release = await worker.writes?.admit(requestSignal);
			try {
				// Nothing goes out once the grace period is over, however late the journal let it go:
				// the job may have ended already.
				requestSignal.throwIfAborted();
				await options.apply(change, requestSignal);
			} finally {
				release?.();
			}
			return 'changed' as const;
		},
		// A cancel starts no retry; requests already out finish within the grace period.
		{ retry: options.retry, signal: options.signal, requestSignal },
	);
	if (result.ok) {
		reporter.outcome(result.value, change.id);
		return undefined;
	}
	const { failure } = result;
	switch (failure.kind) {
		case 'aborted':
			return undefined;
		case 'left':
			reporter.outcome('left', change.id);
			return undefined;
		case 'revoked':
			worker.markRevoked();
			reporter.failed('token-revoked', change.id);
			return 'revoked';
		case 'permanent':
		case 'transient':
			reporter.failed(failure.reason, change.id);
			return undefined;
	}
}
