import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';
import type { MemberRecord } from '../../../src/discord/MemberRecord.js';
import type { Plan } from '../../../src/jobs/Plan.js';
import { Progress } from '../../../src/jobs/Progress.js';
import { type PendingChange, runSlice, type SliceOptions } from '../../../src/jobs/runSlice.js';
import { WorkQueue } from '../../../src/jobs/WorkQueue.js';
import { flushPromises } from '../../support/flushPromises.js';

const url = 'http://127.0.0.1/api/v10/guilds/1/members/2';
const apiError = (status: number, code: number): DiscordAPIError =>
	new DiscordAPIError({ code, message: 'x' }, code, status, 'PATCH', url, { body: undefined });
const badGateway = (): HTTPError => new HTTPError(502, 'Bad Gateway', 'PATCH', url, { body: undefined });

function member(id: string): MemberRecord {
	return { id, username: `user${id}`, globalName: null, nick: null, roles: [], bot: false };
}

/** One request the slice sent; the test answers it (or its `answer` did at once). */
interface Call {
	readonly change: PendingChange;
	readonly signal: AbortSignal;
	readonly settled: boolean;
	resolve(): void;
	reject(error: unknown): void;
}

/**
 * The action's `apply`, answered by the test: each call is held until `answer` (or the test)
 * settles it. A held call rejects when its signal aborts, as discord.js's requests do, unless
 * `ignoresSignal` (a request discord.js holds until a rate-limit reset, deaf to its signal).
 */
class FakeApply {
	readonly calls: Call[] = [];
	inFlight = 0;
	peakInFlight = 0;
	#waiters: Array<{ count: number; resolve: () => void }> = [];

	constructor(
		public answer: (call: Call) => void = (call) => call.resolve(),
		readonly ignoresSignal = false,
	) {}

	readonly apply = (change: PendingChange, signal: AbortSignal): Promise<void> =>
		new Promise<void>((resolve, reject) => {
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
				change,
				signal,
				get settled() {
					return settled;
				},
				resolve: () => settle() && resolve(),
				reject: (error) => settle() && reject(error),
			};
			this.inFlight++;
			this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
			if (!this.ignoresSignal) signal.addEventListener('abort', onAbort, { once: true });
			this.calls.push(call);
			for (const waiter of this.#waiters.filter((waiter) => this.calls.length >= waiter.count)) waiter.resolve();
			this.answer(call);
		});

	/** Resolves once the slice has sent `count` requests in all. */
	waitForCalls(count: number): Promise<void> {
		if (this.calls.length >= count) return Promise.resolve();
		return new Promise((resolve) => this.#waiters.push({ count, resolve }));
	}

	/** Settles every held call and every later one at once. */
	answerAll(): void {
		this.answer = (call) => call.resolve();
		for (const call of this.calls) if (!call.settled) call.resolve();
	}

	idsSent(): string[] {
		return this.calls.map((call) => call.change.id);
	}
}

interface Harness {
	options: SliceOptions;
	queue: WorkQueue<MemberRecord>;
	fake: FakeApply;
	progress: Progress;
	revokedMarks: () => number;
	cancel: AbortController;
	requests: AbortController;
	/** The slice's counters. */
	counts: () => ReturnType<Progress['snapshot']>['workers'][number];
}

/**
 * A slice over members `1`..`count` (closed queue: the listing is over), each planned as a change
 * unless `plans` says otherwise, sending through `fake`.
 */
function harness(count: number, overrides: Partial<SliceOptions> & { fake?: FakeApply; plans?: Map<string, Plan> } = {}): Harness {
	const { fake = new FakeApply(), plans = new Map<string, Plan>(), ...rest } = overrides;
	const queue = new WorkQueue<MemberRecord>(1000);
	for (let id = 1; id <= count; id++) queue.push(member(String(id)));
	queue.close();
	const progress = new Progress(1);
	let revokedMarks = 0;
	const cancel = new AbortController();
	const requests = new AbortController();
	const options: SliceOptions = {
		worker: { markRevoked: () => void revokedMarks++ },
		queue,
		plan: (record) => plans.get(record.id) ?? { action: 'change', from: null, to: `new ${record.id}` },
		apply: fake.apply,
		reporter: progress.reporter(0),
		left: new Set(),
		maxInFlight: 3,
		retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
		dryRun: false,
		signal: cancel.signal,
		requestSignal: requests.signal,
		guard: new InvalidRequestGuard(1000),
		...rest,
	};
	return {
		options,
		queue,
		fake,
		progress,
		revokedMarks: () => revokedMarks,
		cancel,
		requests,
		counts: () => progress.snapshot().workers[0]!,
	};
}

describe('runSlice', () => {
	it('the first change goes out alone; after it, at most maxInFlight are in flight', async () => {
		const fake = new FakeApply(() => {});
		const { options, counts } = harness(8, { fake, maxInFlight: 3 });
		const slice = runSlice(options);
		await fake.waitForCalls(1);
		await flushPromises();
		expect(fake.calls).toHaveLength(1);
		fake.calls[0]!.resolve();
		await fake.waitForCalls(4);
		await flushPromises();
		expect(fake.calls).toHaveLength(4);
		expect(fake.inFlight).toBe(3);
		expect(counts().inFlight).toBe(3);
		fake.calls[2]!.resolve();
		await fake.waitForCalls(5);
		await flushPromises();
		expect(fake.calls).toHaveLength(5);
		fake.answerAll();
		expect(await slice).toBe('drained');
		expect(fake.peakInFlight).toBe(3);
		expect(fake.idsSent()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
		expect(counts()).toMatchObject({ changed: 8, failedTotal: 0, inFlight: 0 });
	});

	it('sends each change with its journaled values: from, to, and the request signal', async () => {
		const { options, fake, requests } = harness(1, { plans: new Map([['1', { action: 'change', from: 'old', to: 'new' }]]) });
		await runSlice(options);
		expect(fake.calls[0]!.change).toEqual({ id: '1', from: 'old', to: 'new' });
		expect(fake.calls[0]!.signal).toBe(requests.signal);
	});

	it('members planned done, cant or skip are counted and sent nothing', async () => {
		const plans = new Map<string, Plan>([
			['1', { action: 'done' }],
			['2', { action: 'cant', reason: 'above-worker' }],
			['3', { action: 'skip', reason: 'own-bot' }],
			['4', { action: 'done' }],
		]);
		const { options, fake, counts } = harness(5, { plans });
		expect(await runSlice(options)).toBe('drained');
		expect(fake.idsSent()).toEqual(['5']);
		expect(counts()).toMatchObject({ alreadyDone: 2, cant: 1, skipped: 1, changed: 1, done: 5 });
	});

	it('a change refused by `refuse` counts failed with its reason, neither journaled nor sent; a member done still counts done', async () => {
		const journaled: PendingChange[] = [];
		let refusing = false;
		const fake = new FakeApply((call) => {
			refusing = true;
			call.resolve();
		});
		const plans = new Map<string, Plan>([['3', { action: 'done' }]]);
		const refuse = (): string | undefined => (refusing ? 'no-more' : undefined);
		const { options, counts } = harness(4, { fake, plans, maxInFlight: 1, refuse, beforeChange: async (changes) => void journaled.push(...changes) });
		expect(await runSlice(options)).toBe('drained');
		expect([fake.idsSent(), journaled.map((change) => change.id)]).toEqual([['1'], ['1']]);
		expect(counts()).toMatchObject({ changed: 1, alreadyDone: 1, failed: { 'no-more': 2 }, done: 4 });
	});

	it('a dry run sends and journals nothing, but counts each change it would make', async () => {
		const journaled: PendingChange[] = [];
		const plans = new Map<string, Plan>([['2', { action: 'done' }]]);
		const { options, fake, counts } = harness(4, { plans, dryRun: true, beforeChange: async (changes) => void journaled.push(...changes) });
		expect(await runSlice(options)).toBe('drained');
		expect(fake.calls).toEqual([]);
		expect(journaled).toEqual([]);
		expect(counts()).toMatchObject({ changed: 3, alreadyDone: 1 });
	});

	it('a change is sent only once its journal write has resolved', async () => {
		let release!: () => void;
		const journaled: PendingChange[][] = [];
		const beforeChange = (changes: PendingChange[]): Promise<void> => {
			journaled.push(changes);
			return new Promise((resolve) => {
				release = resolve;
			});
		};
		const { options, fake } = harness(1, { beforeChange });
		const slice = runSlice(options);
		await flushPromises();
		expect(journaled).toEqual([[{ id: '1', from: null, to: 'new 1' }]]);
		expect(fake.calls).toEqual([]);
		release();
		expect(await slice).toBe('drained');
		expect(fake.idsSent()).toEqual(['1']);
	});

	it('a failed journal write stops the slice with its error, and nothing unjournaled is sent', async () => {
		const journalError = new Error('disk full');
		const journaled = new Set<string>();
		const beforeChange = async ([change]: PendingChange[]): Promise<void> => {
			if (change!.id === '3') throw journalError;
			journaled.add(change!.id);
		};
		const { options, fake, queue, counts } = harness(20, { beforeChange, maxInFlight: 3 });
		await expect(runSlice(options)).rejects.toBe(journalError);
		for (const id of fake.idsSent()) expect(journaled).toContain(id);
		expect(fake.idsSent()).not.toContain('3');
		expect(counts().failed).toEqual({ 'journal-write': 1 });
		// It stopped taking members: the rest are still queued, for a rerun.
		expect(queue.size).toBeGreaterThanOrEqual(20 - 3 - 3);
		expect(counts().inFlight).toBe(0);
	});

	it('a transient failure is retried, up to attempts in all, then counted failed with its reason', async () => {
		const tries = new Map<string, number>();
		const fake = new FakeApply((call) => {
			const tried = (tries.get(call.change.id) ?? 0) + 1;
			tries.set(call.change.id, tried);
			// Member 1 never gets through; member 2 does on its second try.
			if (call.change.id === '1' || tried < 2) call.reject(badGateway());
			else call.resolve();
		});
		const { options, counts } = harness(2, { fake, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
		expect(await runSlice(options)).toBe('drained');
		expect(Object.fromEntries(tries)).toEqual({ 1: 3, 2: 2 });
		expect(counts()).toMatchObject({ changed: 1, failed: { 'http-502': 1 } });
	});

	it('a permanent failure (403 missing permissions) is counted failed and never retried', async () => {
		const fake = new FakeApply((call) => call.reject(apiError(403, RESTJSONErrorCodes.MissingPermissions)));
		const { options, counts } = harness(1, { fake });
		expect(await runSlice(options)).toBe('drained');
		expect(fake.calls).toHaveLength(1);
		expect(counts().failed).toEqual({ 'missing-permissions': 1 });
	});

	it('a 404 Unknown Member counts as left, not failed', async () => {
		const fake = new FakeApply((call) => (call.change.id === '2' ? call.reject(apiError(404, RESTJSONErrorCodes.UnknownMember)) : call.resolve()));
		const { options, counts } = harness(3, { fake });
		expect(await runSlice(options)).toBe('drained');
		expect(counts()).toMatchObject({ changed: 2, left: 1, failedTotal: 0 });
	});

	it('members who left are sent nothing, even when they leave while a retry waits', async () => {
		const left = new Set(['2']);
		const fake = new FakeApply((call) => {
			if (call.change.id === '3') {
				left.add('3');
				call.reject(badGateway());
			} else call.resolve();
		});
		const { options, counts } = harness(3, { fake, left, retry: { attempts: 5, baseDelayMs: 1, maxDelayMs: 1 } });
		expect(await runSlice(options)).toBe('drained');
		expect(fake.idsSent()).toEqual(['1', '3']);
		expect(counts()).toMatchObject({ changed: 1, left: 2, failedTotal: 0 });
	});

	it('a revoked token (401) marks the worker revoked, stops the slice and counts what it still held as worker-stopped', async () => {
		const fake = new FakeApply((call) => call.reject(apiError(401, 0)));
		const { options, queue, counts, revokedMarks } = harness(5, { fake, maxInFlight: 2 });
		expect(await runSlice(options)).toBe('revoked');
		expect(revokedMarks()).toBe(1);
		expect(fake.calls).toHaveLength(1);
		expect(counts()).toMatchObject({ changed: 0, failed: { 'token-revoked': 1, 'worker-stopped': 4 }, done: 5 });
		expect(queue.size).toBe(0);
		expect(queue.closed).toBe(true);
	});

	it('a revoked token seen by several changes in flight counts each once, and the rest as worker-stopped', async () => {
		const fake = new FakeApply((call) => (call.change.id === '1' ? call.resolve() : undefined));
		const { options, counts } = harness(10, { fake, maxInFlight: 3 });
		const slice = runSlice(options);
		// The first goes alone and passes; then three go out together and all meet the 401.
		await fake.waitForCalls(4);
		for (const call of fake.calls.slice(1)) call.reject(apiError(401, 0));
		expect(await slice).toBe('revoked');
		expect(counts()).toMatchObject({ changed: 1, failed: { 'token-revoked': 3, 'worker-stopped': 6 }, done: 10 });
	});

	it('a cancel stops taking members; what is in flight finishes and the slice ends cancelled', async () => {
		const fake = new FakeApply(() => {});
		const { options, queue, cancel, counts } = harness(10, { fake, maxInFlight: 2 });
		const slice = runSlice(options);
		await fake.waitForCalls(1);
		cancel.abort(new Error('cancelled'));
		fake.calls[0]!.resolve();
		expect(await slice).toBe('cancelled');
		expect(fake.calls).toHaveLength(1);
		expect(counts()).toMatchObject({ changed: 1, inFlight: 0 });
		expect(queue.size).toBe(9);
	});

	it('a cancel while a retry waits starts no retry', async () => {
		const fake = new FakeApply((call) => call.reject(badGateway()));
		// A backoff no test would wait out: only the cancel can end it.
		const { options, cancel, counts } = harness(1, { fake, retry: { attempts: 5, baseDelayMs: 3_600_000, maxDelayMs: 3_600_000 } });
		const slice = runSlice(options);
		await fake.waitForCalls(1);
		await flushPromises();
		cancel.abort(new Error('cancelled'));
		expect(await slice).toBe('cancelled');
		expect(fake.calls).toHaveLength(1);
		// Not done and not failed: a rerun takes the member.
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('after a cancel, the slice waits for requests in flight only until the grace period ends', async () => {
		const fake = new FakeApply(() => {});
		const { options, cancel, requests, counts } = harness(3, { fake });
		let ended = false;
		const slice = runSlice(options).finally(() => {
			ended = true;
		});
		await fake.waitForCalls(1);
		cancel.abort(new Error('cancelled'));
		await flushPromises();
		expect(ended).toBe(false);
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		// The held request was dropped through its signal: counted neither done nor failed.
		expect(fake.calls[0]!.settled).toBe(true);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0 });
	});

	it('a slice that has ended counts nothing in flight, though discord.js still holds a request', async () => {
		const fake = new FakeApply(() => {}, true);
		const { options, cancel, requests, counts } = harness(3, { fake });
		const slice = runSlice(options);
		await fake.waitForCalls(1);
		cancel.abort(new Error('cancelled'));
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		expect(fake.calls[0]!.settled).toBe(false);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
		// When discord.js lets it go at last, nothing is counted twice.
		fake.calls[0]!.reject(new Error('dropped'));
		await flushPromises();
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a change whose journal write outlasts the grace period is never sent', async () => {
		let release!: () => void;
		const beforeChange = (): Promise<void> =>
			new Promise((resolve) => {
				release = resolve;
			});
		const { options, fake, cancel, requests, counts } = harness(2, { beforeChange });
		const slice = runSlice(options);
		await flushPromises();
		cancel.abort(new Error('cancelled'));
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		release();
		await flushPromises();
		expect(fake.calls).toEqual([]);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a change held by the invalid-request guard is dropped unsent when the grace period ends', async () => {
		const guard = new InvalidRequestGuard(1, 3_600_000);
		guard.record();
		const { options, fake, cancel, requests, counts } = harness(2, { guard });
		const slice = runSlice(options);
		await flushPromises();
		cancel.abort(new Error('cancelled'));
		requests.abort(new Error('grace period over'));
		expect(await slice).toBe('cancelled');
		expect(fake.calls).toEqual([]);
		expect(counts()).toMatchObject({ changed: 0, failedTotal: 0, inFlight: 0 });
	});

	it('a slice already cancelled takes no member', async () => {
		const { options, fake, cancel, queue } = harness(3);
		cancel.abort();
		expect(await runSlice(options)).toBe('cancelled');
		expect(fake.calls).toEqual([]);
		expect(queue.size).toBe(3);
	});

	it('waits for the listing while its queue is empty, and drains once it closes', async () => {
		const queue = new WorkQueue<MemberRecord>(10);
		const { options, fake, counts } = harness(0);
		const slice = runSlice({ ...options, queue });
		queue.push(member('1'));
		await fake.waitForCalls(1);
		queue.push(member('2'));
		await fake.waitForCalls(2);
		queue.close();
		expect(await slice).toBe('drained');
		expect(counts().changed).toBe(2);
	});
});
