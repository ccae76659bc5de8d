import { describe, expect, it } from 'vitest';
import { RateMeter } from '../../../src/jobs/RateMeter.js';

describe('RateMeter', () => {
	it('averages events over the window', () => {
		let now = 0;
		const meter = new RateMeter(10, () => now);
		for (let second = 0; second < 10; second++) {
			now = second * 1000;
			meter.add(5);
		}
		now = 9_999;
		expect(meter.perSecond()).toBeCloseTo(5, 5);
	});

	it('forgets events older than the window', () => {
		let now = 0;
		const meter = new RateMeter(10, () => now);
		meter.add(100);
		now = 20_000;
		expect(meter.perSecond()).toBe(0);
	});

	it('measures a young job over its own age, not the whole window', () => {
		let now = 1_000_000;
		const meter = new RateMeter(30, () => now);
		const start = now;
		meter.add(20);
		now += 2_000;
		expect(meter.perSecond(start)).toBeCloseTo(10, 5);
	});
});
