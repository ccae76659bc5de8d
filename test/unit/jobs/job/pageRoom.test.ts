import { describe, expect, it } from 'vitest';
import { hasRoomForNextPage, QUEUE_OVERFILL } from '../../../../src/jobs/job/pageRoom.js';

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
