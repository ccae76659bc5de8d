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
});
