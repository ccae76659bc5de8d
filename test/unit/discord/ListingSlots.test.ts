import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_MS, ListingSlots, SLOT_HEADROOM } from '../../../src/discord/ListingSlots.js';

/** A clock that moves only when the slots sleep, so every wait ends exactly where it was aimed. */
function fakeClock(start: number): { now: () => number; sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
	let time = start;
	return {
		now: () => time,
		sleep: async (ms, signal) => {
			signal?.throwIfAborted();
			time += ms;
		},
	};
}

const headers = (limit: string, remaining: string, resetAfter: string, reset?: string) => ({
	get: (name: string) =>
		({ 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': remaining, 'x-ratelimit-reset-after': resetAfter, 'x-ratelimit-reset': reset })[name] ?? null,
});

/** The times one process asks for its pages: `pages` waits in a row, each starting where the last ended. */
async function pageTimes(held: number[], workerCount: number, pages: number, start: number): Promise<number[]> {
	const clock = fakeClock(start);
	const slots = new ListingSlots({ heldWorkers: held, workerCount, ...clock });
	const times: number[] = [];
	for (let page = 0; page < pages; page++) {
		await slots.wait();
		times.push(clock.now());
	}
	return times;
}

describe('ListingSlots', () => {
	it("asks at the start of its workers' slots only, one cycle of a slot per worker apart", async () => {
		const slot = DEFAULT_PAGE_MS / SLOT_HEADROOM;
		const cycle = slot * 5;
		// Worker 2 of 5, starting a little into a cycle: its slot of this cycle, then of each next.
		const times = await pageTimes([2], 5, 3, cycle * 1000 + 10);
		const expected = [0, 1, 2].map((k) => cycle * 1000 + 2 * slot + k * cycle);
		expect(times.map((time, k) => Math.abs(time - expected[k]!))).toEqual([0, 0, 0].map(() => expect.closeTo(0, 6)));
	});

	it('takes each slot once, however quickly the next page is asked for', async () => {
		const clock = fakeClock(0);
		const slots = new ListingSlots({ heldWorkers: [0, 1], workerCount: 4, ...clock });
		const slot = slots.slotMs;
		await slots.wait();
		expect(clock.now()).toBe(0);
		await slots.wait();
		expect(clock.now()).toBeCloseTo(slot, 6);
		await slots.wait();
		expect(clock.now()).toBeCloseTo(4 * slot, 6);
	});

	it('never asks the token for more than its limit in any window, however the workers are split over processes', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc
					.integer({ min: 1, max: 49 })
					.chain((count) => fc.tuple(fc.constant(count), fc.array(fc.integer({ min: 0, max: 6 }), { minLength: count, maxLength: count }), fc.nat(10_000_000))),
				async ([count, processOf, start]) => {
					// Each worker to one of up to 7 processes; each process pages as fast as its slots allow.
					const processes = new Map<number, number[]>();
					processOf.forEach((process, worker) => processes.set(process, [...(processes.get(process) ?? []), worker]));
					const all: number[] = [];
					for (const held of processes.values()) all.push(...(await pageTimes(held, count, 30, start)));
					all.sort((a, b) => a - b);
					// Discord's window for List Guild Members: 10 pages per 10 s.
					const windowMs = 10 * DEFAULT_PAGE_MS;
					for (let first = 0; first < all.length; first++) {
						let inWindow = 0;
						while (first + inWindow < all.length && all[first + inWindow]! < all[first]! + windowMs) inWindow++;
						expect(inWindow).toBeLessThanOrEqual(10);
					}
				},
			),
			{ numRuns: 60 },
		);
	});

	it("learns a page's share of the allowance from the listing's rate-limit headers", () => {
		const slots = new ListingSlots({ heldWorkers: [0], workerCount: 1 });
		expect(slots.pageMs).toBe(DEFAULT_PAGE_MS);
		// A sandbox at time scale 5: 10 per 2 s. Only the response that opened its window tells the
		// window's length; one later in a window another pod opened tells only what is left of it.
		slots.learn(headers('10', '6', '0.3'));
		expect(slots.pageMs).toBe(DEFAULT_PAGE_MS);
		slots.learn(headers('10', '9', '2'));
		expect(slots.pageMs).toBe(200);
		slots.learn(headers('10', '4', '0.4'));
		expect(slots.pageMs).toBe(200);
		expect(slots.slotMs).toBeCloseTo(200 / SLOT_HEADROOM, 9);
		// Headers that say nothing leave what was learned.
		slots.learn({ get: () => null });
		expect(slots.pageMs).toBe(200);
	});

	it('stops waiting when the job is cancelled', async () => {
		const slots = new ListingSlots({ heldWorkers: [3], workerCount: 4, now: () => 0 });
		const controller = new AbortController();
		const waiting = slots.wait(controller.signal);
		controller.abort(new Error('cancelled'));
		await expect(waiting).rejects.toThrow('cancelled');
	});

	it('refuses a process with no worker to give it turns', () => {
		expect(() => new ListingSlots({ heldWorkers: [], workerCount: 3 })).toThrow(RangeError);
	});
});
