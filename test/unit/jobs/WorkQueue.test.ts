import { describe, expect, it } from 'vitest';
import { hasRoomForNextPage, QUEUE_OVERFILL } from '../../../src/jobs/Job.js';
import { WorkQueue } from '../../../src/jobs/WorkQueue.js';
import { flushPromises } from '../../support/flushPromises.js';

describe('WorkQueue', () => {
	it('hands items over in order and ends once closed and drained', async () => {
		const queue = new WorkQueue<number>(10);
		queue.push(1);
		queue.push(2);
		queue.close();
		expect(await queue.take()).toBe(1);
		expect(await queue.take()).toBe(2);
		expect(await queue.take()).toBeUndefined();
	});

	it('a waiting consumer wakes when an item arrives', async () => {
		const queue = new WorkQueue<string>(10);
		const taken = queue.take();
		queue.push('a');
		expect(await taken).toBe('a');
	});

	it('waitForRoom holds the producer while the queue is at capacity', async () => {
		const queue = new WorkQueue<number>(2);
		queue.push(1);
		queue.push(2);
		let released = false;
		const waiting = queue.waitForRoom().then(() => {
			released = true;
		});
		// Only a take, a clear or a close can let the producer go; nothing else is pending.
		await flushPromises();
		expect(released).toBe(false);
		await queue.take();
		await waiting;
		expect(released).toBe(true);
	});

	it('still takes a late item after close while the consumer drains (a joiner after the listing)', async () => {
		const queue = new WorkQueue<number>(5);
		queue.push(1);
		queue.close();
		queue.push(2);
		expect(await queue.take()).toBe(1);
		expect(await queue.take()).toBe(2);
		expect(await queue.take()).toBeUndefined();
	});

	it('clear drops what was not taken and reports how many', () => {
		const queue = new WorkQueue<number>(5);
		for (let i = 0; i < 4; i++) queue.push(i);
		expect(queue.clear()).toBe(4);
		expect(queue.size).toBe(0);
	});

	it('keeps its backing array small over a long run', async () => {
		const queue = new WorkQueue<number>(100);
		for (let round = 0; round < 50; round++) {
			for (let i = 0; i < 100; i++) queue.push(i);
			for (let i = 0; i < 100; i++) expect(await queue.take()).toBe(i);
		}
		expect(queue.size).toBe(0);
	});

	it('refuses an item once its consumer has finished, so nothing is counted that nobody takes', async () => {
		const queue = new WorkQueue<number>(5);
		queue.close();
		expect(await queue.take()).toBeUndefined();
		expect(queue.push(1)).toBe(false);
		expect(queue.size).toBe(0);
	});
});

describe('onDrain', () => {
	it('tells the producer of every take, close and clear, and of nothing else', async () => {
		let calls = 0;
		const queue = new WorkQueue<number>(5, () => calls++);
		queue.push(1);
		queue.push(2);
		expect(calls).toBe(0);
		await queue.take();
		expect(calls).toBe(1);
		queue.poll();
		expect(calls).toBe(2);
		queue.push(3);
		queue.clear();
		expect(calls).toBe(3);
		queue.close();
		expect(calls).toBe(4);
	});
});

describe('hasRoomForNextPage', () => {
	const queue = (size: number, capacity = 40) => ({ size, capacity });

	it('lets the next page in when every queue has room', () => {
		expect(hasRoomForNextPage([queue(39), queue(30), queue(25)], 20)).toBe(true);
		expect(hasRoomForNextPage([], 20)).toBe(true);
	});

	it('holds it while one queue is full and nobody runs low, as one queue would', () => {
		expect(hasRoomForNextPage([queue(40), queue(30), queue(25)], 20)).toBe(false);
	});

	it('lets a worker running low call the next page though another is full: many workers drift apart', () => {
		expect(hasRoomForNextPage([queue(75), queue(30), queue(19)], 20)).toBe(true);
	});

	it('never past the overfill bound, so a worker that stalls holds the listing and memory stays bounded', () => {
		expect(hasRoomForNextPage([queue(40 * QUEUE_OVERFILL), queue(0)], 20)).toBe(false);
		expect(hasRoomForNextPage([queue(40 * QUEUE_OVERFILL - 1), queue(0)], 20)).toBe(true);
	});
});
