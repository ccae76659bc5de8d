import { DiscordAPIError, HTTPError, RESTJSONErrorCodes } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { retryTransient } from '../../../src/discord/retryTransient.js';
import { sleep } from '../../../src/util/sleep.js';

function apiError(status: number, code: number): DiscordAPIError {
	return new DiscordAPIError({ code, message: 'x' }, code, status, 'PATCH', 'http://127.0.0.1/api/v10/guilds/1/members/2', { body: undefined });
}

const badGateway = (): HTTPError => new HTTPError(502, 'Bad Gateway', 'PATCH', 'http://127.0.0.1/api/v10/guilds/1/members/2', { body: undefined });

const retry = { attempts: 4, baseDelayMs: 100, maxDelayMs: 250 };

/** A sleep that returns at once and remembers what it was asked to wait. */
function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
	const delays: number[] = [];
	return { delays, sleep: async (ms) => void delays.push(ms) };
}

/** A `run` that fails with each of `failures` in turn, then returns `'ok'`. */
function failing(...failures: unknown[]): { run: () => Promise<string>; calls: () => number } {
	let calls = 0;
	return {
		calls: () => calls,
		run: async () => {
			const failure = failures[calls++];
			if (failure !== undefined) throw failure;
			return 'ok';
		},
	};
}

describe('retryTransient', () => {
	it('retries transient failures with exponential, capped backoff and returns the value once one passes', async () => {
		const { sleep, delays } = recordingSleep();
		const { run, calls } = failing(badGateway(), badGateway(), badGateway());
		const result = await retryTransient(run, { retry, sleep, random: () => 1 });
		expect(result).toEqual({ ok: true, value: 'ok' });
		expect(calls()).toBe(4);
		expect(delays).toEqual([100, 200, 250]);
	});

	it('gives up after `attempts` tries in all, with the last transient failure and its error', async () => {
		const { sleep, delays } = recordingSleep();
		const last = badGateway();
		const { run, calls } = failing(badGateway(), badGateway(), badGateway(), last, badGateway());
		const result = await retryTransient(run, { retry, sleep, random: () => 1 });
		expect(result).toEqual({ ok: false, failure: { kind: 'transient', reason: 'http-502' }, error: last });
		expect(calls()).toBe(4);
		expect(delays).toHaveLength(3);
	});

	it.each([
		['a permanent failure', apiError(403, RESTJSONErrorCodes.MissingPermissions), { kind: 'permanent', reason: 'missing-permissions' }],
		['a member who left', apiError(404, RESTJSONErrorCodes.UnknownMember), { kind: 'left' }],
		['a revoked token', apiError(401, 0), { kind: 'revoked' }],
	])('%s ends it at once, untried again', async (_, error, failure) => {
		const { sleep, delays } = recordingSleep();
		const { run, calls } = failing(error);
		const result = await retryTransient(run, { retry, sleep });
		expect(result).toEqual({ ok: false, failure, error });
		expect(calls()).toBe(1);
		expect(delays).toEqual([]);
	});

	it('a synchronous throw from run is classified like a rejection', async () => {
		const error = apiError(403, RESTJSONErrorCodes.MissingPermissions);
		const result = await retryTransient(
			() => {
				throw error;
			},
			{ retry },
		);
		expect(result).toEqual({ ok: false, failure: { kind: 'permanent', reason: 'missing-permissions' }, error });
	});

	it('a failure once the request signal has aborted is aborted, not retried', async () => {
		const { sleep, delays } = recordingSleep();
		const requests = new AbortController();
		const error = badGateway();
		const result = await retryTransient(
			async () => {
				requests.abort(new Error('dropped'));
				throw error;
			},
			{ retry, sleep, requestSignal: requests.signal },
		);
		expect(result).toEqual({ ok: false, failure: { kind: 'aborted' }, error });
		expect(delays).toEqual([]);
	});

	it('a cancel during the backoff ends it as aborted, with the cancel reason, and starts no retry', async () => {
		const controller = new AbortController();
		const reason = new Error('cancelled');
		const { run, calls } = failing(badGateway(), badGateway());
		let sleeping!: () => void;
		const asleep = new Promise<void>((resolve) => {
			sleeping = resolve;
		});
		const result = retryTransient(run, {
			retry,
			signal: controller.signal,
			// The real sleep, over a span no test would wait out: only the abort can end it.
			sleep: (_ms, signal) => {
				sleeping();
				return sleep(3_600_000, signal);
			},
		});
		await asleep;
		controller.abort(reason);
		expect(await result).toEqual({ ok: false, failure: { kind: 'aborted' }, error: reason });
		expect(calls()).toBe(1);
	});

	it('the backoff sleeps on `signal`; failures are classified against `requestSignal`', async () => {
		const cancel = new AbortController();
		const requests = new AbortController();
		const sleeps: Array<AbortSignal | undefined> = [];
		const { run } = failing(badGateway());
		cancel.abort();
		// Cancelled but inside the grace period: the failure is real (not aborted), and the sleep
		// is handed the cancel signal, which ends it.
		const result = await retryTransient(run, {
			retry,
			signal: cancel.signal,
			requestSignal: requests.signal,
			sleep: async (_ms, signal) => {
				sleeps.push(signal);
				signal?.throwIfAborted();
			},
		});
		expect(sleeps).toEqual([cancel.signal]);
		expect(result.ok).toBe(false);
		expect(!result.ok && result.failure).toEqual({ kind: 'aborted' });
	});

	it('a failure routed around is tried again at once, without a backoff and without counting an attempt', async () => {
		const { sleep, delays } = recordingSleep();
		const revoked = apiError(401, 0);
		const { run, calls } = failing(revoked, revoked, badGateway(), badGateway());
		const asked: string[] = [];
		const result = await retryTransient(run, {
			retry: { attempts: 2, baseDelayMs: 100, maxDelayMs: 1000 },
			sleep,
			random: () => 1,
			retryAtOnce: (failure, error) => {
				asked.push(failure.kind);
				return error === revoked;
			},
		});
		// Two re-routed tries, then two counted ones: the second 502 uses up the two attempts.
		expect(calls()).toBe(4);
		expect(asked).toEqual(['revoked', 'revoked', 'transient', 'transient']);
		expect(delays).toEqual([100]);
		expect(result).toMatchObject({ ok: false, failure: { kind: 'transient', reason: 'http-502' } });
	});

	it('is not asked to route around an abort', async () => {
		const controller = new AbortController();
		controller.abort();
		const asked: string[] = [];
		const result = await retryTransient(failing(badGateway()).run, {
			retry,
			signal: controller.signal,
			retryAtOnce: (failure) => {
				asked.push(failure.kind);
				return true;
			},
		});
		expect(asked).toEqual([]);
		expect(result).toMatchObject({ ok: false, failure: { kind: 'aborted' } });
	});
});
