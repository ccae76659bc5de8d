import type { MemberRecord } from '../discord/MemberRecord.js';
import { type Retried, retryTransient } from '../discord/retryTransient.js';
import { ABOVE_REQUESTER } from './GuildContext.js';
import type { BatchResult } from './MassAction.js';
import type { PendingChange, SliceEnd, SliceOptions } from './runSlice.js';
import { takeOrAbort } from './takeOrAbort.js';

export interface BatchSliceOptions extends Omit<SliceOptions, 'apply' | 'maxInFlight'> {
	/** The most changes one call carries (at least 1). */
	size: number;
	/** Sends `changes` in one call with the worker's token; resolves with those Discord did not make. */
	send: (changes: readonly PendingChange[], signal: AbortSignal) => Promise<BatchResult>;
}

/** The request was still held when the grace period after a cancel ended: it can change nothing now. */
const ABANDONED = Symbol('abandoned');

/**
 * Works one worker's slice in batches: takes a member from its queue (waiting for one), then
 * every member the queue holds ready, up to `size`, plans each, and sends the changes among them
 * in one call, journaled whole before it goes out. A batch never waits to fill: what the queue
 * holds when the first member is in goes, so the last members of a slice are not held back.
 *
 * One call at a time: the route's rate limit, not the batch, is what bounds a worker (Bulk Guild
 * Ban allows few calls a second, each of 200 users), and a call waiting on it would only hold
 * members the next batch can take. Retries, cancel, the invalid-request guard and a revoked token
 * are handled as `runSlice` handles them for one change.
 */
export async function runBatchSlice(options: BatchSliceOptions): Promise<SliceEnd> {
	const { queue, reporter, signal, size } = options;
	if (!Number.isInteger(size) || size < 1) throw new RangeError(`a batch holds at least one change, got ${size}`);
	for (;;) {
		const batch = await collectBatch(options);
		if (batch === undefined) break;
		if (options.dryRun) {
			for (const change of batch) reporter.outcome('changed', change.id);
			continue;
		}
		if ((await sendBatch(options, batch)) === 'revoked') {
			queue.close();
			// What the stopped worker still held is not done: a rerun without its token does it.
			for (let dropped = queue.clear(); dropped > 0; dropped--) reporter.failed('worker-stopped');
			return 'revoked';
		}
	}
	return signal.aborted ? 'cancelled' : 'drained';
}

/**
 * The next batch: the first member waited for, the rest taken only while ready. Members that need
 * no change are counted on the way. `undefined` once the queue is drained or the slice cancelled.
 */
async function collectBatch(options: BatchSliceOptions): Promise<PendingChange[] | undefined> {
	const { queue, signal, size } = options;
	const batch: PendingChange[] = [];
	while (batch.length < size && !signal.aborted) {
		const member = batch.length === 0 ? await takeOrAbort(queue, signal) : queue.poll();
		if (member === undefined) break;
		const change = changeOf(options, member);
		if (change) batch.push(change);
	}
	return batch.length === 0 ? undefined : batch;
}

/** The change `member` needs, or `undefined` after counting why none. */
function changeOf(options: BatchSliceOptions, member: MemberRecord): PendingChange | undefined {
	const { reporter } = options;
	const plan = options.plan(member);
	switch (plan.action) {
		case 'done':
			reporter.outcome('alreadyDone', member.id);
			return undefined;
		case 'cant':
			reporter.outcome(plan.reason === ABOVE_REQUESTER ? 'aboveRequester' : 'cant', member.id);
			return undefined;
		case 'skip':
			reporter.outcome('skipped', member.id);
			return undefined;
	}
	if (options.left.has(member.id)) {
		reporter.outcome('left', member.id);
		return undefined;
	}
	const refused = options.refuse?.();
	if (refused !== undefined) {
		reporter.failed(refused, member.id);
		return undefined;
	}
	return { id: member.id, from: plan.from, to: plan.to };
}

/** Journals a batch whole, then sends it, retrying what may pass; `'revoked'` if the token died. */
async function sendBatch(options: BatchSliceOptions, batch: readonly PendingChange[]): Promise<'revoked' | undefined> {
	const { reporter, requestSignal } = options;
	/** The changes of the last try: members who left while a retry waited are not sent again. */
	let sent = batch;
	let abandoned = false;
	const journaledThenSent = (async (): Promise<Retried<BatchResult>> => {
		try {
			await options.beforeChange?.([...batch]);
		} catch (error) {
			// Nothing is changed unless its original is safely on disk: the job stops.
			if (!abandoned) for (const change of batch) reporter.failed('journal-write', change.id);
			throw error;
		}
		return retryTransient(
			async () => {
				sent = sent.filter((change) => !options.left.has(change.id));
				if (sent.length === 0) return { failed: new Map<string, string>() };
				await options.guard.ready(requestSignal);
				const release = await options.worker.writes?.admit(requestSignal);
				try {
					// Nothing goes out once the grace period is over, however late the journal let it go.
					requestSignal.throwIfAborted();
					return await options.send(sent, requestSignal);
				} finally {
					release?.();
				}
			},
			// A cancel starts no retry; a call already out finishes within the grace period.
			{ retry: options.retry, signal: options.signal, requestSignal },
		);
	})();
	// Abandoned, its journal write may still fail: the slice has ended and the job says why.
	journaledThenSent.catch(() => {});
	reporter.inFlight(batch.length);
	let result: Retried<BatchResult> | typeof ABANDONED;
	try {
		result = await untilAborted(journaledThenSent, requestSignal);
	} finally {
		reporter.inFlight(-batch.length);
	}
	if (result === ABANDONED) {
		abandoned = true;
		return undefined;
	}
	const stillMembers = new Set(sent);
	for (const change of batch) if (!stillMembers.has(change)) reporter.outcome('left', change.id);
	if (result.ok) {
		for (const change of sent) {
			const reason = result.value.failed.get(change.id);
			if (reason === undefined) reporter.outcome('changed', change.id);
			else reporter.failed(reason, change.id);
		}
		return undefined;
	}
	const { failure } = result;
	switch (failure.kind) {
		case 'aborted':
			return undefined;
		case 'revoked':
			options.worker.markRevoked();
			for (const change of sent) reporter.failed('token-revoked', change.id);
			return 'revoked';
		case 'left':
			// Unknown Member answers a call about one member, never a batch: counted as it came.
			for (const change of sent) reporter.failed('unknown-member', change.id);
			return undefined;
		case 'permanent':
		case 'transient':
			for (const change of sent) reporter.failed(failure.reason, change.id);
			return undefined;
	}
}

/**
 * `call`'s answer, or {@link ABANDONED} once `signal` aborts first: what discord.js still holds
 * then waits on a rate-limit reset and is dropped unsent when it wakes (its signal is aborted).
 */
function untilAborted<T>(call: Promise<T>, signal: AbortSignal): Promise<T | typeof ABANDONED> {
	if (signal.aborted) return Promise.resolve(ABANDONED);
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<typeof ABANDONED>((resolve) => {
		onAbort = () => resolve(ABANDONED);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	return Promise.race([call, aborted]).finally(() => signal.removeEventListener('abort', onAbort!));
}
