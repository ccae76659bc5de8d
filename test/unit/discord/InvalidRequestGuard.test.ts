import { describe, expect, it } from 'vitest';
import { InvalidRequestGuard } from '../../../src/discord/InvalidRequestGuard.js';

describe('InvalidRequestGuard', () => {
	it('lets requests through below the budget', async () => {
		const guard = new InvalidRequestGuard(3, 1000);
		guard.record();
		guard.record();
		await expect(guard.ready()).resolves.toBeUndefined();
	});

	it('holds requests at the budget until the oldest invalid answer leaves the window', async () => {
		let now = 0;
		const guard = new InvalidRequestGuard(2, 50, () => now);
		guard.record();
		guard.record();
		expect(guard.count).toBe(2);
		let released = false;
		const waiting = guard.ready().then(() => {
			released = true;
		});
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(released).toBe(false);
		now = 51;
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
