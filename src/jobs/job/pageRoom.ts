/** How far past its capacity a queue may fill while another worker runs low (see {@link hasRoomForNextPage}). */
export const QUEUE_OVERFILL = 8;

/**
 * Whether the listing may fetch its next page, given the open queues: when every queue has room
 * (below its capacity), or when some worker is running low (below `lowWater`) and no queue is
 * {@link QUEUE_OVERFILL} times past its capacity.
 *
 * Waiting for room in every queue alone starves workers once there are many: a page gives each of
 * 200 workers about 5 members, give or take 2, and those differences add up page after page
 * (a random walk) while every worker takes at the same rate, so the worker that drew the most
 * holds the listing while the one that drew the fewest runs dry. Letting a worker running low
 * call the next page keeps every worker fed; the overfill bound keeps memory to the work in
 * flight (a worker that stalls fills up to it, then holds the listing as before).
 */
export function hasRoomForNextPage(queues: ReadonlyArray<{ readonly size: number; readonly capacity: number }>, lowWater: number): boolean {
	let everyHasRoom = true;
	let someRunLow = false;
	for (const { size, capacity } of queues) {
		if (size >= capacity * QUEUE_OVERFILL) return false;
		if (size >= capacity) everyHasRoom = false;
		else if (size < lowWater) someRunLow = true;
	}
	return everyHasRoom || someRunLow;
}
