import { REST } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';
import { flushPromises } from '../../support/flushPromises.js';
import { waitUntil } from '../../support/waitUntil.js';

describe('InvalidRequestGuard', () => {
	it('lets requests through below the budget', async () => {
		const guard = new InvalidRequestGuard(3, 1000);
		guard.record();
		guard.record();
		await expect(guard.ready()).resolves.toBeUndefined();
	});

	it('holds requests at the budget until the oldest invalid answer leaves the window', async () => {
		let now = 0;
		// Every time the guard looks at the clock: it does so each time it checks the window.
		const readings: number[] = [];
		const guard = new InvalidRequestGuard(2, 50, () => {
			readings.push(now);
			return now;
		});
		guard.record();
		guard.record();
		expect(guard.count).toBe(2);
		let released = false;
		const waiting = guard.ready().then(() => {
			released = true;
		});
		// One millisecond before the oldest answer leaves the window, the guard checks again (it
		// reads the clock) and must still hold: that check is made by the time it has read 49.
		now = 49;
		await waitUntil(() => readings.includes(49), { what: 'the guard to check the window at 49 ms', everyMs: 5 });
		await flushPromises();
		expect(released).toBe(false);
		now = 50;
		await waiting;
		expect(released).toBe(true);
		expect(guard.count).toBe(0);
	});

	it('a cancelled wait rejects instead of hanging', async () => {
		const guard = new InvalidRequestGuard(1, 60_000);
		guard.record();
		const controller = new AbortController();
		const waiting = guard.ready(controller.signal);
		controller.abort(new Error('cancelled'));
		await expect(waiting).rejects.toThrow('cancelled');
	});

	it('counts what a watched client is answered: 401, 403 and 429 by status, every 429 by scope, a shared one outside the window', () => {
		const guard = new InvalidRequestGuard(100, 60_000);
		const rest = new REST();
		guard.watch(rest);
		const answer = (status: number, scope?: string) =>
			rest.emit('response', {} as never, new Response(null, { status, headers: scope === undefined ? {} : { 'x-ratelimit-scope': scope } }) as never);
		answer(200);
		answer(404);
		answer(401);
		answer(403);
		answer(403);
		answer(429, 'user');
		answer(429, 'global');
		answer(429, 'shared');
		answer(429, 'shared');
		answer(429);
		answer(429, 'something-new');
		expect(guard.totals).toEqual({
			byStatus: { 401: 1, 403: 2, 429: 4 },
			rateLimitedByScope: { user: 1, global: 1, shared: 2, none: 1, other: 1 },
		});
		expect(guard.count).toBe(7);
	});
});
