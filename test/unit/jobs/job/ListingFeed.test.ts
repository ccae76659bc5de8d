import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListingFeed } from '../../../../src/jobs/job/ListingFeed.js';
import { hasRoomForNextPage, QUEUE_OVERFILL } from '../../../../src/jobs/job/pageRoom.js';
import { flushPromises } from '../../../support/flushPromises.js';

/** Hands out one page: `counts[place]` members to each slice. */
function handOut(feed: ListingFeed<number>, counts: readonly number[]): void {
	counts.forEach((count, place) => {
		for (let i = 0; i < count; i++) feed.queue(place).push(i);
	});
	feed.pageHandedOut();
}

/** Starts the listing's wait for room; `ready()` tells whether it is over yet. */
function waitForRoom(feed: ListingFeed<number>): { ready: () => boolean } {
	let ready = false;
	void feed.roomForNextPage().then(() => {
		ready = true;
	});
	return { ready: () => ready };
}

describe('ListingFeed', () => {
	// Queues of 10, and a queue below 2 × 2 = 4 runs low.
	const options = { slices: 3, capacity: 10, maxInFlight: 2 };

	it('lets the first page in at once, and the next while every queue has room', async () => {
		const feed = new ListingFeed<number>(options);
		const first = waitForRoom(feed);
		await flushPromises();
		expect(first.ready()).toBe(true);
		handOut(feed, [9, 9, 9]);
		expect(feed.hasRoom()).toBe(true);
	});

	it('holds the listing at a full queue until that slice takes a member', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [10, 6, 6]);
		const wait = waitForRoom(feed);
		await flushPromises();
		expect(wait.ready()).toBe(false);
		// A take from a queue that is not full changes nothing: the full one still holds it.
		await feed.queue(1).take();
		await flushPromises();
		expect(wait.ready()).toBe(false);
		await feed.queue(0).take();
		await flushPromises();
		expect(wait.ready()).toBe(true);
	});

	it('a slice running low calls the next page in though another queue is full', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [25, 4, 6]);
		const wait = waitForRoom(feed);
		await flushPromises();
		expect(wait.ready()).toBe(false);
		await feed.queue(1).take();
		await flushPromises();
		expect(wait.ready()).toBe(true);
	});

	it('a queue at the overfill bound holds the listing however low the others run', () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [10 * QUEUE_OVERFILL, 0, 0]);
		expect(feed.hasRoom()).toBe(false);
	});

	it('a slice that ended, or a queue closed, no longer holds the listing back', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [10, 10, 6]);
		const wait = waitForRoom(feed);
		feed.endSlice(0);
		await flushPromises();
		expect(wait.ready()).toBe(false);
		expect(feed.sliceEnded(0)).toBe(true);
		expect(feed.sliceEnded(1)).toBe(false);
		feed.queue(1).close();
		await flushPromises();
		expect(wait.ready()).toBe(true);
	});

	it('the slice that held the listing ending wakes it', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [10, 6, 6]);
		const wait = waitForRoom(feed);
		await flushPromises();
		expect(wait.ready()).toBe(false);
		feed.endSlice(0);
		await flushPromises();
		expect(wait.ready()).toBe(true);
	});

	it('closing every queue releases a waiting listing', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [10, 10, 10]);
		const wait = waitForRoom(feed);
		feed.closeAll();
		await flushPromises();
		expect(wait.ready()).toBe(true);
		expect([0, 1, 2].every((place) => feed.queue(place).closed)).toBe(true);
	});

	it('notes the most any queue held after a page, and sizes every queue alike', async () => {
		const feed = new ListingFeed<number>(options);
		handOut(feed, [3, 7, 5]);
		await feed.queue(1).take();
		handOut(feed, [1, 1, 1]);
		expect(feed.peakQueued).toBe(7);
		expect(feed.capacity).toBe(10);
		expect(new ListingFeed<number>({ ...options, slices: 0 }).capacity).toBe(0);
	});
});

/**
 * A listing against slices that take at their own pace: each step hands out a page (members for
 * each slice) or one slice takes a member, ends, or has its queue closed.
 */
const schedule = fc.record({
	slices: fc.integer({ min: 1, max: 5 }),
	capacity: fc.integer({ min: 1, max: 12 }),
	maxInFlight: fc.integer({ min: 1, max: 4 }),
	steps: fc.array(
		fc.oneof(
			{ weight: 1, arbitrary: fc.record({ page: fc.array(fc.nat({ max: 6 }), { minLength: 5, maxLength: 5 }) }) },
			{ weight: 6, arbitrary: fc.record({ take: fc.nat({ max: 4 }) }) },
			{ weight: 1, arbitrary: fc.record({ end: fc.nat({ max: 4 }), close: fc.boolean() }) },
		),
		{ maxLength: 80 },
	),
});

describe('ListingFeed, for any pace of the slices', () => {
	it('the listing waits exactly while the queues taken from have no room, and the change that makes room wakes it', async () => {
		await fc.assert(
			fc.asyncProperty(schedule, async ({ slices, capacity, maxInFlight, steps }) => {
				const feed = new ListingFeed<number>({ slices, capacity, maxInFlight });
				const ended = new Set<number>();
				let wait = waitForRoom(feed);
				for (const step of steps) {
					// Once let in, the listing is off fetching its page: only a wait still on can end.
					const waiting = !wait.ready();
					if ('page' in step) {
						// The listing fetches a page only once it is let in.
						if (!wait.ready()) continue;
						handOut(
							feed,
							step.page.slice(0, slices).map((count, place) => (ended.has(place) ? 0 : count)),
						);
						wait = waitForRoom(feed);
					} else if ('take' in step) feed.queue(step.take % slices).poll();
					else if (step.close) feed.queue(step.end % slices).close();
					else {
						feed.endSlice(step.end % slices);
						ended.add(step.end % slices);
					}
					await flushPromises();
					const open = Array.from({ length: slices }, (_, place) => feed.queue(place)).filter((queue, place) => !queue.closed && !ended.has(place));
					if (waiting || 'page' in step) expect(wait.ready()).toBe(hasRoomForNextPage(open, maxInFlight * 2));
				}
			}),
			{ seed: 24, numRuns: 300 },
		);
	});

	it('no queue holds more than the overfill bound and one page’s share', () => {
		fc.assert(
			fc.property(schedule, ({ slices, capacity, maxInFlight, steps }) => {
				const feed = new ListingFeed<number>({ slices, capacity, maxInFlight });
				for (const step of steps) {
					if ('page' in step && feed.hasRoom()) handOut(feed, step.page.slice(0, slices));
					else if ('take' in step) feed.queue(step.take % slices).poll();
				}
				expect(feed.peakQueued).toBeLessThan(capacity * QUEUE_OVERFILL + 6 + 1);
			}),
			{ seed: 24, numRuns: 500 },
		);
	});
});
