import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';
import type { MemberRecord } from '../../../src/discord/MemberRecord.js';
import type { BatchResult } from '../../../src/jobs/MassAction.js';
import type { Plan } from '../../../src/jobs/Plan.js';
import { Progress } from '../../../src/jobs/Progress.js';
import { type BatchSliceOptions, runBatchSlice } from '../../../src/jobs/runBatchSlice.js';
import type { PendingChange } from '../../../src/jobs/runSlice.js';
import { WorkQueue } from '../../../src/jobs/WorkQueue.js';
import { flushPromises } from '../../support/flushPromises.js';

const url = 'http://127.0.0.1/api/v10/guilds/1/bulk-ban';
const apiError = (status: number, code: number): DiscordAPIError => new DiscordAPIError({ code, message: 'x' }, code, status, 'POST', url, { body: undefined });
const badGateway = (): HTTPError => new HTTPError(502, 'Bad Gateway', 'POST', url, { body: undefined });

function member(id: string): MemberRecord {
	return { id, username: `user${id}`, globalName: null, nick: null, roles: [], bot: false };
}

/** One call the slice sent; the test answers it (or its `answer` did at once). */
interface Call {
	readonly ids: string[];
	readonly changes: readonly PendingChange[];
	readonly signal: AbortSignal;
	readonly settled: boolean;
	resolve(failed?: Record<string, string>): void;
	reject(error: unknown): void;
}

/** The action's batch `send`, answered by the test; a held call rejects when its signal aborts unless `ignoresSignal`. */
class FakeSend {
	readonly calls: Call[] = [];
	inFlight = 0;
	peakInFlight = 0;
	#waiters: Array<{ count: number; resolve: () => void }> = [];

	constructor(
		public answer: (call: Call) => void = (call) => call.resolve(),
		readonly ignoresSignal = false,
	) {}

	readonly send = (changes: readonly PendingChange[], signal: AbortSignal): Promise<BatchResult> =>
		new Promise<BatchResult>((resolve, reject) => {
			let settled = false;
			const settle = (): boolean => {
				if (settled) return false;
				settled = true;
				this.inFlight--;
				signal.removeEventListener('abort', onAbort);
				return true;
			};
			const onAbort = (): void => call.reject(signal.reason);
			const call: Call = {
				ids: changes.map((change) => change.id),
				changes: [...changes],
				signal,
				get settled() {
					return settled;
				},
				resolve: (failed = {}) => settle() && resolve({ failed: new Map(Object.entries(failed)) }),
				reject: (error) => settle() && reject(error),
			};
			this.inFlight++;
			this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
			if (!this.ignoresSignal) signal.addEventListener('abort', onAbort, { once: true });
			this.calls.push(call);
			for (const waiter of this.#waiters.filter((waiter) => this.calls.length >= waiter.count)) waiter.resolve();
			this.answer(call);
		});

	waitForCalls(count: number): Promise<void> {
		if (this.calls.length >= count) return Promise.resolve();
		return new Promise((resolve) => this.#waiters.push({ count, resolve }));
	}
}

/** A batch slice over members `1`..`count` (closed queue unless `open`), each a change unless `plans` says otherwise. */
function harness(count: number, overrides: Partial<BatchSliceOptions> & { fake?: FakeSend; plans?: Map<string, Plan>; open?: boolean } = {}) {
	const { fake = new FakeSend(), plans = new Map<string, Plan>(), open = false, ...rest } = overrides;
	const queue = new WorkQueue<MemberRecord>(1000);
	for (let id = 1; id <= count; id++) queue.push(member(String(id)));
	if (!open) queue.close();
	const progress = new Progress(1);
	let revokedMarks = 0;
	const cancel = new AbortController();
	const requests = new AbortController();
	const options: BatchSliceOptions = {
		worker: { markRevoked: () => void revokedMarks++ },
		queue,
		plan: (record) => plans.get(record.id) ?? { action: 'change', from: null, to: 'banned' },
		size: 3,
		send: fake.send,
		reporter: progress.reporter(0),
		left: new Set(),
		retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
		dryRun: false,
		signal: cancel.signal,
		requestSignal: requests.signal,
		guard: new InvalidRequestGuard(1000),
		...rest,
	};
	return { options, queue, fake, cancel, requests, revokedMarks: () => revokedMarks, counts: () => progress.snapshot().workers[0]! };
}

const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, n) => String(from + n));

describe('runBatchSlice', () => {
	it('sends the slice in calls of at most `size`, in queue order, one call at a time', async () => {
		const fake = new FakeSend(() => {});
		const { options, counts } = harness(8, { fake, size: 3 });
		const slice = runBatchSlice(options);
		await fake.waitForCalls(1);
		await flushPromises();
		expect(fake.calls).toHaveLength(1);
		expect(counts().inFlight).toBe(3);
		fake.calls[0]!.resolve();
		await fake.waitForCalls(2);
		await flushPromises();
		expect(fake.calls).toHaveLength(2);
		fake.answer = (call) => call.resolve();
		fake.calls[1]!.resolve();
		expect(await slice).toBe('drained');
		expect(fake.calls.map((call) => call.ids)).toEqual([range(1, 3), range(4, 6), range(7, 8)]);
		expect(fake.peakInFlight).toBe(1);
		expect(counts()).toMatchObject({ changed: 8, failedTotal: 0, inFlight: 0 });
	});

	it('changes refused by `refuse` count failed with its reason, neither journaled nor sent; a member done still counts done', async () => {
		const journaled: string[] = [];
		const fake = new FakeSend();
		const plans = new Map<string, Plan>([['5', { action: 'done' }]]);
		const refuse = (): string | undefined => (fake.calls.length > 0 ? 'no-more' : undefined);
		const { options, counts } = harness(6, {
			fake,
			plans,
			size: 3,
			refuse,
			beforeChange: async (changes) => void journaled.push(...changes.map((change) => change.id)),
		});
		expect(await runBatchSlice(options)).toBe('drained');
		expect([fake.calls.map((call) => call.ids), journaled]).toEqual([[range(1, 3)], range(1, 3)]);
		expect(counts()).toMatchObject({ changed: 3, alreadyDone: 1, failed: { 'no-more': 2 }, done: 6 });
	});

	it('journals a whole batch before its call, and sends it only once the write has resolved', async () => {
		let release!: () => void;
		const journaled: PendingChange[][] = [];
		const beforeChange = (changes: PendingChange[]): Promise<void> => {
			journaled.push(changes);
			return new Promise((resolve) => {
				release = resolve;
			});
		};
		const { options, fake } = harness(2, { beforeChange });
		const slice = runBatchSlice(options);
		await flushPromises();
		expect(journaled).toEqual([
			[
				{ id: '1', from: null, to: 'banned' },
				{ id: '2', from: null, to: 'banned' },
			],
		]);
		expect(fake.calls).toEqual([]);
		release();
		expect(await slice).toBe('drained');
		expect(fake.calls.map((call) => call.changes)).toEqual(journaled);
	});

	it('does not wait for a full batch: what the queue holds ready goes, then the slice waits for the listing', async () => {
		const { options, fake, queue, counts } = harness(2, { open: true, size: 200 });
		const slice = runBatchSlice(options);
		await fake.waitForCalls(1);
		expect(fake.calls[0]!.ids).toEqual(['1', '2']);
		for (const id of ['3', '4', '5']) queue.push(member(id));
		await fake.waitForCalls(2);
		expect(fake.calls[1]!.ids).toEqual(['3', '4', '5']);
		queue.close();
		expect(await slice).toBe('drained');
		expect(counts().changed).toBe(5);
	});

	it('members planned done, cant, above the requester or skip are counted and never sent', async () => {
		const plans = new Map<string, Plan>([
			['1', { action: 'done' }],
			['2', { action: 'cant', reason: 'owner' }],
			['3', { action: 'cant', reason: 'above-requester' }],
			['4', { action: 'skip', reason: 'own-bot' }],
		]);
		const { options, fake, counts } = harness(6, { plans, size: 200 });
		expect(await runBatchSlice(options)).toBe('drained');
		expect(fake.calls.map((call) => call.ids)).toEqual([['5', '6']]);
		expect(counts()).toMatchObject({ alreadyDone: 1, cant: 1, aboveRequester: 1, skipped: 1, changed: 2, done: 6 });
	});

	it('the members a call answers as failed count failed with their reason, the others changed', async () => {
		const fake = new FakeSend((call) => call.resolve({ 2: 'not-banned' }));
		const { options, counts } = harness(3, { fake });
		expect(await runBatchSlice(options)).toBe('drained');
		expect(counts()).toMatchObject({ changed: 2, failed: { 'not-banned': 1 } });
	});

	it('a dry run sends and journals nothing, but counts each change it would make', async () => {
		const journaled: PendingChange[] = [];
		const { options, fake, counts } = harness(5, {
			dryRun: true,
			plans: new Map([['2', { action: 'done' }]]),
			beforeChange: async (changes) => void journaled.push(...changes),
		});
		expect(await runBatchSlice(options)).toBe('drained');
		expect(fake.calls).toEqual([]);
		expect(journaled).toEqual([]);
		expect(counts()).toMatchObject({ changed: 4, alreadyDone: 1 });
	});

	it('a failed journal write stops the slice with its error; nothing of that batch is sent', async () => {
		const journalError = new Error('disk full');
		const beforeChange = async (changes: PendingChange[]): Promise<void> => {
			if (changes.some((change) => change.id === '4')) throw journalError;
		};
		const { options, fake, queue, counts } = harness(9, { beforeChange });
		await expect(runBatchSlice(options)).rejects.toBe(journalError);
		expect(fake.calls.map((call) => call.ids)).toEqual([range(1, 3)]);
		expect(counts()).toMatchObject({ changed: 3, failed: { 'journal-write': 3 }, inFlight: 0 });
		expect(queue.size).toBe(3);
	});

	it('a call that fails for a passing reason is retried whole, up to attempts in all, then each member counts failed', async () => {
		let tries = 0;
		const fake = new FakeSend((call) => (++tries < 2 ? call.reject(badGateway()) : call.resolve()));
		const { options, counts } = harness(3, { fake });
		expect(await runBatchSlice(options)).toBe('drained');
		expect(fake.calls.map((call) => call.ids)).toEqual([range(1, 3), range(1, 3)]);
		expect(counts()).toMatchObject({ changed: 3, failedTotal: 0 });

		const always = new FakeSend((call) => call.reject(badGateway()));
		const failing = harness(2, { fake: always, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 } });
		expect(await runBatchSlice(failing.options)).toBe('drained');
		expect(always.calls).toHaveLength(3);
		expect(failing.counts()).toMatchObject({ changed: 0, failed: { 'http-502': 2 } });
	});

	it('a call refused for good (500000 Failed to ban users) is never retried, and each member counts failed', async () => {
		const fake = new FakeSend((call) => call.reject(apiError(400, RESTJSONErrorCodes.FailedToBanUsers)));
		const { options, counts } = harness(2, { fake });
		expect(await runBatchSlice(options)).toBe('drained');
		expect(fake.calls).toHaveLength(1);
		expect(counts().failed).toEqual({ [`discord-${RESTJSONErrorCodes.FailedToBanUsers}`]: 2 });
	});

	it('members who left are not sent, even when they leave while a retry waits', async () => {
		const left = new Set(['2']);
		const fake = new FakeSend((call) => {
			if (fake.calls.length === 1) {
				left.add('3');
				call.reject(badGateway());
			} else call.resolve();
		});
		const { options, counts } = harness(3, { fake, left, retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 1 } });
		expect(await runBatchSlice(options)).toBe('drained');
		expect(fake.calls.map((call) => call.ids)).toEqual([['1', '3'], ['1']]);
		expect(counts()).toMatchObject({ changed: 1, left: 2, failedTotal: 0 });
	});

	it('a revoked token (401) marks the worker revoked, counts the batch token-revoked and what is queued worker-stopped', async () => {
		const fake = new FakeSend((call) => call.reject(apiError(401, 0)));
		const { options, queue, counts, revokedMarks } = harness(8, { fake });
		expect(await runBatchSlice(options)).toBe('revoked');
		expect(revokedMarks()).toBe(1);
		expect(fake.calls).toHaveLength(1);
		expect(counts()).toMatchObject({ changed: 0, failed: { 'token-revoked': 3, 'worker-stopped': 5 }, done: 8 });
		expect([queue.size, queue.closed]).toEqual([0, true]);
	});

	it('a cancel stops taking members; the call in flight finishes and the slice ends cancelled', async () => {
		const fake = new FakeSend(() => {});
		const { options, queue, cancel, counts } = harness(10, { fake });
		const slice = runBatchSlice(options);
		await fake.waitForCalls(1);
		cancel.abort(new Error('cancelled'));
		fake.calls[0]!.resolve();
		expect(await slice).toBe('cancelled');
		expect(fake.calls).toHaveLength(1);
		expect(counts()).toMatchObject({ changed: 3, inFlight: 0 });
		expect(queue.size).toBe(7);
	});

	it('after a cancel, a call discord.js still holds is abandoned when the grace period ends, and counted in no outcome', async () => {
		const fake = new FakeSend(() => {}, true);
		const { options, cancel, requests, counts } = harness(3, { fake });
		let ended = false;
		const slice = runBatchSlice(options).finally(() => {
			ended = true;
		});
		await fake.waitForCalls(1);
		cancel.abort(new Error('cancelled'));
		await flushPromises();
		expect(ended).toBe(false);
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		expect(fake.calls[0]!.settled).toBe(false);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
		fake.calls[0]!.reject(new Error('dropped'));
		await flushPromises();
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a batch whose journal write outlasts the grace period is never sent, and the slice does not wait for it', async () => {
		let release!: () => void;
		const beforeChange = (): Promise<void> =>
			new Promise((resolve) => {
				release = resolve;
			});
		const { options, fake, cancel, requests, counts } = harness(2, { beforeChange });
		const slice = runBatchSlice(options);
		await flushPromises();
		cancel.abort(new Error('cancelled'));
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		release();
		await flushPromises();
		expect(fake.calls).toEqual([]);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a batch held by the invalid-request guard is dropped unsent when the grace period ends', async () => {
		const guard = new InvalidRequestGuard(1, 3_600_000);
		guard.record();
		const { options, fake, cancel, requests, counts } = harness(2, { guard });
		const slice = runBatchSlice(options);
		await flushPromises();
		cancel.abort(new Error('cancelled'));
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		expect(fake.calls).toEqual([]);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a slice already cancelled takes no member, and a batch size below 1 is refused', async () => {
		const { options, fake, cancel, queue } = harness(3);
		cancel.abort();
		expect(await runBatchSlice(options)).toBe('cancelled');
		expect([fake.calls.length, queue.size]).toEqual([0, 3]);
		await expect(runBatchSlice({ ...harness(1).options, size: 0 })).rejects.toThrow(RangeError);
	});
});
