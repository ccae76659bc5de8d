import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SliceLayout } from '../../../../src/jobs/job/SliceLayout.js';

/** A millisecond that every N up to 16 divides: a member made `ms` later is owned by worker `ms % N`. */
const BASE = 720_720n * 1_000_000n;

/** A member id made `ms` milliseconds after {@link BASE}. */
const idAt = (ms: bigint, increment = 0n): string => String(((BASE + ms) << 22n) | increment);

const snowflake = fc.bigInt({ min: 10n ** 16n, max: 2n ** 64n - 1n }).map(String);

/** A fleet of N workers and the ids among them one process holds, lowest first. */
const fleet = fc.integer({ min: 1, max: 64 }).chain((workerCount) =>
	fc.record({
		workerCount: fc.constant(workerCount),
		held: fc.uniqueArray(fc.integer({ min: 0, max: workerCount - 1 })).map((ids) => ids.sort((a, b) => a - b)),
	}),
);

describe('SliceLayout', () => {
	it('sends a member to the slice of the worker that owns them by the snowflake rule', () => {
		const layout = new SliceLayout(5, [1, 3]);
		expect(layout.ids).toEqual([1, 3]);
		expect(layout.placeOf(idAt(101n))).toBe(0);
		expect(layout.placeOf(idAt(103n, 4095n))).toBe(1);
		expect(layout.placeOf(idAt(108n))).toBe(1);
	});

	it('answers -1 for a member whose worker another process holds', () => {
		const layout = new SliceLayout(5, [1, 3]);
		for (const ms of [100n, 102n, 104n]) expect(layout.placeOf(idAt(ms))).toBe(-1);
	});

	it('a process holding no worker sends every member elsewhere', () => {
		const layout = SliceLayout.of({ workerCount: 3, held: [] });
		expect(layout.ids).toEqual([]);
		for (const ms of [0n, 1n, 2n]) expect(layout.placeOf(idAt(ms))).toBe(-1);
	});

	it('the whole guild is every worker id of the fleet, in order, whichever this process holds', () => {
		const layout = SliceLayout.of({ workerCount: 4, held: [2], wholeGuild: true });
		expect(layout.ids).toEqual([0, 1, 2, 3]);
		for (const ms of [0n, 1n, 2n, 3n, 7n]) expect(layout.placeOf(idAt(ms))).toBe(Number(ms % 4n));
	});

	it('any member goes to their owner’s place among the held, or elsewhere, never to another worker', () => {
		fc.assert(
			fc.property(fleet, snowflake, ({ workerCount, held }, id) => {
				const layout = SliceLayout.of({ workerCount, held });
				const owner = Number((BigInt(id) >> 22n) % BigInt(workerCount));
				expect(layout.placeOf(id)).toBe(held.indexOf(owner));
				const whole = SliceLayout.of({ workerCount, held, wholeGuild: true });
				expect(whole.ids[whole.placeOf(id)]).toBe(owner);
			}),
			{ seed: 24, numRuns: 1_000 },
		);
	});

	it('refuses a worker id outside the fleet', () => {
		expect(() => new SliceLayout(3, [3])).toThrow(RangeError);
		expect(() => new SliceLayout(3, [-1])).toThrow(RangeError);
	});
});

describe('SliceLayout.queueCapacity', () => {
	it('holds two pages’ share of the fleet’s workers, sized by N and not by the slices held', () => {
		// 3 workers: a page of 1000 gives each about 333, so two pages' share is 667.
		expect(new SliceLayout(3, [0, 1, 2]).queueCapacity(4)).toBe(667);
		expect(new SliceLayout(3, [1]).queueCapacity(4)).toBe(667);
		// One pod holding one worker of 49 waits after about two pages, not a hundred.
		expect(new SliceLayout(49, [7]).queueCapacity(4)).toBe(41);
	});

	it('never holds less than four times what is in flight, however large the fleet', () => {
		expect(new SliceLayout(1000, [0]).queueCapacity(4)).toBe(16);
		expect(new SliceLayout(200, [0]).queueCapacity(8)).toBe(32);
	});

	it('any fleet: room for in flight and for two pages’ share, and no more than either asks', () => {
		fc.assert(
			fc.property(fleet, fc.integer({ min: 1, max: 64 }), ({ workerCount, held }, maxInFlight) => {
				const capacity = SliceLayout.of({ workerCount, held }).queueCapacity(maxInFlight);
				expect(capacity).toBeGreaterThanOrEqual(maxInFlight * 4);
				expect(capacity * workerCount).toBeGreaterThanOrEqual(2000);
				expect(capacity === maxInFlight * 4 || (capacity - 1) * workerCount < 2000).toBe(true);
			}),
			{ seed: 24, numRuns: 500 },
		);
	});
});
