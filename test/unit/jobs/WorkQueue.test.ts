import { describe, expect, it } from 'vitest';
import { WorkQueue } from '../../../src/jobs/WorkQueue.js';

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
