import { describe, expect, it } from 'vitest';
import { SharedLimitPacing } from '../../../src/discord/SharedLimitPacing.js';

/** A pacing on a clock the test moves by hand. */
function pacingAt(start = 1_000_000, options: { margin?: number } = {}) {
	let now = start;
	const pacing = new SharedLimitPacing({ now: () => now, margin: options.margin ?? 0 });
	const clock = {
		pacing,
		at: (ms: number) => {
			now = start + ms;
		},
		/** `count` writes answered at `from`, `from + every`, ... (ms from the start). */
		wrote(from: number, count: number, every = 0) {
			for (let i = 0; i < count; i++) {
				now = start + from + i * every;
				pacing.wrote();
			}
		},
		/** Ms from the start. */
		rel: (ms: number) => ms - start,
		/**
		 * A cap of 20 per 10 s met at the job's start and checked: 20 writes, a refusal at 200 ms, the
		 * hold, the window after it at twice the guess refused after 20 more. Holds until 20 s.
		 */
		capped() {
			clock.wrote(0, 20, 10);
			clock.at(200);
			pacing.refused(9_800);
			clock.wrote(10_000, 20, 250);
			clock.at(15_000);
			pacing.refused(5_000);
		},
	};
	return clock;
}

describe('SharedLimitPacing', () => {
	it('paces nothing until the guild refuses a write with scope shared', () => {
		const clock = pacingAt();
		clock.wrote(0, 50, 10);
		expect(clock.pacing.pacing).toBe(false);
		expect(clock.pacing.intervalMs).toBe(0);
		expect(clock.rel(clock.pacing.sendAt())).toBe(490);
	});

	it('guesses the cap from the first refusal (the writes since the first one, to the reset) and checks it at twice the guess', () => {
		const clock = pacingAt();
		// 20 writes in the first 200 ms, then the 21st is refused with 9.8 s left of the window.
		clock.wrote(0, 20, 10);
		clock.at(200);
		expect(clock.pacing.refused(9_800)).toBe(true);
		expect(clock.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 2 });
		expect(clock.pacing.intervalMs).toBe(250);
		// Nothing goes before the window resets.
		expect(clock.rel(clock.pacing.sendAt())).toBe(10_000);
		// The window after the hold refuses the 21st: the two resets are the window, its writes the cap.
		clock.wrote(10_000, 20, 250);
		clock.at(15_000);
		expect(clock.pacing.refused(5_000)).toBe(true);
		expect(clock.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 1 });
		expect(clock.pacing.intervalMs).toBe(500);
		expect(clock.rel(clock.pacing.sendAt())).toBe(20_000);
	});

	it('a cap that came up mid-run, first guessed from a minute of writes, is measured in the window after the hold', () => {
		const clock = pacingAt();
		clock.wrote(0, 600, 100);
		clock.at(60_000);
		clock.pacing.refused(5_000);
		expect(clock.pacing.state?.windowMs).toBe(65_000);
		// Twice the guess (about 18 a 10 s) is above the cap: the 21st write after the hold is refused.
		clock.wrote(65_000, 20, 100);
		clock.at(67_000);
		clock.pacing.refused(8_000);
		expect(clock.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 1 });
	});

	it('a guess that twice over goes through a whole window is dropped: the next refusal is a first one again', () => {
		const clock = pacingAt();
		clock.wrote(0, 20, 10);
		clock.at(200);
		clock.pacing.refused(9_800);
		clock.at(20_000);
		expect(clock.pacing.pacing).toBe(false);
		clock.wrote(50_000, 30, 10);
		clock.at(50_300);
		clock.pacing.refused(9_700);
		// A first guess again, over the last minute's writes, checked at twice its rate.
		expect(clock.pacing.state).toEqual({ limit: 50, windowMs: 60_000, factor: 2 });
	});

	it('spaces the writes by the cap, slower by the margin', () => {
		const clock = pacingAt(0, { margin: 0.02 });
		clock.capped();
		expect(clock.pacing.intervalMs).toBeCloseTo(510);
		clock.at(20_000);
		clock.pacing.sent();
		expect(clock.pacing.sendAt()).toBeCloseTo(20_510);
		// A write sent late moves the next one with it: no two writes closer than the interval.
		clock.at(20_700);
		clock.pacing.sent();
		expect(clock.pacing.sendAt()).toBeCloseTo(21_210);
	});

	it('refusals of the same window (other workers on the wire) learn nothing more', () => {
		const clock = pacingAt();
		clock.capped();
		clock.at(15_010);
		expect(clock.pacing.refused(4_990)).toBe(false);
		expect(clock.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 1 });
	});

	it('a quiet window raises the pace fourfold; a refusal then learns the cap again from the window it fell in', () => {
		const clock = pacingAt();
		clock.capped();
		// The window after the reset holds to the cap and is quiet.
		clock.wrote(20_000, 20, 500);
		clock.at(30_000);
		expect(clock.pacing.state?.factor).toBe(4);
		expect(clock.pacing.intervalMs).toBe(125);
		// The probe's 21st write is refused: the window still took 20.
		clock.wrote(30_000, 20, 125);
		clock.at(32_600);
		expect(clock.pacing.refused(7_400)).toBe(true);
		expect(clock.pacing.state).toEqual({ limit: 20, windowMs: 10_000, factor: 1 });
		expect(clock.rel(clock.pacing.sendAt())).toBe(40_000);
	});

	it('a probe that takes more than twice the old cap in less than a window ends the pacing', () => {
		const clock = pacingAt();
		clock.capped();
		clock.wrote(20_000, 20, 500);
		clock.at(30_000);
		expect(clock.pacing.state?.factor).toBe(4);
		// 40 could be the end of one window of 20 and the start of the next.
		clock.wrote(30_000, 40, 125);
		expect(clock.pacing.pacing).toBe(true);
		// The 41st write of the probe's first 5.1 s got through: the cap of 20 is gone.
		clock.wrote(35_000, 1);
		expect(clock.pacing.pacing).toBe(false);
		expect(clock.pacing.state).toBeUndefined();
		expect(clock.rel(clock.pacing.sendAt())).toBe(35_000);
	});

	it('two quiet windows in a row end the pacing (the job took less than its share)', () => {
		const clock = pacingAt();
		clock.capped();
		clock.at(30_000);
		expect(clock.pacing.state?.factor).toBe(4);
		clock.at(40_000);
		expect(clock.pacing.pacing).toBe(false);
	});

	it('a cap that comes back after the pacing ended is learnt at once from the window it knows', () => {
		const clock = pacingAt();
		clock.capped();
		clock.at(40_000);
		expect(clock.pacing.pacing).toBe(false);
		// Unpaced again, the workers fill a 10-s window with 30 writes in 3 s.
		clock.wrote(100_000, 30, 100);
		clock.at(103_000);
		clock.pacing.refused(7_000);
		expect(clock.pacing.state).toEqual({ limit: 30, windowMs: 10_000, factor: 1 });
	});
});
