import { WorkQueue } from '../WorkQueue.js';
import { hasRoomForNextPage } from './pageRoom.js';

/**
 * The queues between the one member listing and a job's slices, and the listing's back-pressure:
 * the listing hands each page out into them and then waits, in {@link roomForNextPage}, until
 * {@link hasRoomForNextPage} lets the next page in. Every queue that shrinks or closes, and every
 * slice that ends, wakes it to look again; a slice that ended or a queue that closed no longer
 * holds it back (nobody takes from it any more).
 *
 * Holds no I/O: the listing and the slices drive it, so memory follows the work in flight.
 */
export class ListingFeed<T> {
	readonly #queues: WorkQueue<T>[];
	/** Which slices have ended: a joiner for one of them is left for the next run. */
	readonly #ended: boolean[];
	/** A queue this short lets the next page in: the slice is about to run dry. */
	readonly #lowWater: number;
	#peakQueued = 0;
	/** The listing, waiting for room before its next page. */
	#waiter: (() => void) | undefined;

	/**
	 * `slices`: how many queues; `capacity`: what each holds before the listing waits (see
	 * `SliceLayout.queueCapacity`); `maxInFlight`: a slice's changes at once, of which a queue
	 * below two rounds runs low.
	 */
	constructor(options: { slices: number; capacity: number; maxInFlight: number }) {
		this.#lowWater = options.maxInFlight * 2;
		this.#queues = Array.from({ length: options.slices }, () => new WorkQueue<T>(options.capacity, () => this.#wake()));
		this.#ended = this.#queues.map(() => false);
	}

	/** The queue slice `place` takes from. */
	queue(place: number): WorkQueue<T> {
		return this.#queues[place]!;
	}

	/** How many members each queue holds before the listing waits (0 with no slice). */
	get capacity(): number {
		return this.#queues[0]?.capacity ?? 0;
	}

	/** The most members any queue held after a page was handed out. */
	get peakQueued(): number {
		return this.#peakQueued;
	}

	/** A page has been handed out into the queues: the largest is noted for {@link peakQueued}. */
	pageHandedOut(): void {
		for (const queue of this.#queues) this.#peakQueued = Math.max(this.#peakQueued, queue.size);
	}

	/** Slice `place` ended: its queue no longer holds the listing back. */
	endSlice(place: number): void {
		this.#ended[place] = true;
		this.#wake();
	}

	sliceEnded(place: number): boolean {
		return this.#ended[place]!;
	}

	/** The listing is over or the job stops: every slice drains what it holds, then ends. */
	closeAll(): void {
		for (const queue of this.#queues) queue.close();
	}

	/** Whether the next page may be fetched now, judged on the queues still taken from. */
	hasRoom(): boolean {
		return hasRoomForNextPage(
			this.#queues.filter((queue, place) => !queue.closed && !this.#ended[place]),
			this.#lowWater,
		);
	}

	/** Resolves once the next page may be fetched (at once if it may). */
	async roomForNextPage(): Promise<void> {
		while (!this.hasRoom()) {
			await new Promise<void>((resolve) => {
				this.#waiter = resolve;
			});
		}
	}

	#wake(): void {
		const wake = this.#waiter;
		this.#waiter = undefined;
		wake?.();
	}
}
