/**
 * A bounded hand-off between the one member listing and one worker.
 *
 * The listing pushes records as pages arrive and, before it fetches the next page, waits until
 * the queues have room (`hasRoomForNextPage`, woken by `onDrain`), so however large the guild is,
 * a worker holds at most `QUEUE_OVERFILL` times `capacity` records plus one page's share: memory
 * follows the work in flight, not the guild.
 */
export class WorkQueue<T> {
	readonly #items: T[] = [];
	#head = 0;
	#closed = false;
	/** Closed and drained, and the consumer was told so: nothing pushed now would be taken. */
	#finished = false;
	#wakeConsumer: (() => void) | undefined;
	readonly #onDrain: (() => void) | undefined;

	/** `onDrain`: called whenever the queue shrinks or closes, for a producer watching many queues. */
	constructor(
		readonly capacity: number,
		onDrain?: () => void,
	) {
		if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
		this.#onDrain = onDrain;
	}

	get size(): number {
		return this.#items.length - this.#head;
	}

	get closed(): boolean {
		return this.#closed;
	}

	/**
	 * Adds an item even past capacity (a page is split whole); callers wait for room between pages.
	 * A closed queue still takes items while its consumer drains it: a member who joins after the
	 * listing ended is still changed by the run. Returns `false` (and drops the item) once the
	 * consumer has finished.
	 */
	push(item: T): boolean {
		if (this.#finished) return false;
		this.#items.push(item);
		this.#wake();
		return true;
	}

	/** The listing is over; the consumer drains what is left and then ends. */
	close(): void {
		this.#closed = true;
		this.#wake();
		this.#onDrain?.();
	}

	/** Drops everything not yet taken (a worker that stopped); returns how many were dropped. */
	clear(): number {
		const dropped = this.size;
		this.#items.length = 0;
		this.#head = 0;
		this.#onDrain?.();
		return dropped;
	}

	/** Takes the next item, waiting for one; `undefined` once closed and drained. */
	async take(): Promise<T | undefined> {
		while (this.size === 0) {
			if (this.#closed) {
				this.#finished = true;
				return undefined;
			}
			await new Promise<void>((resolve) => {
				this.#wakeConsumer = resolve;
			});
		}
		return this.#shift();
	}

	/** Takes the next item only if one is ready now. */
	poll(): T | undefined {
		return this.size === 0 ? undefined : this.#shift();
	}

	#shift(): T {
		const item = this.#items[this.#head] as T;
		this.#items[this.#head] = undefined as T;
		this.#head++;
		// Compact now and then so the backing array does not grow with everything ever pushed.
		if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
			this.#items.splice(0, this.#head);
			this.#head = 0;
		}
		this.#onDrain?.();
		return item;
	}

	#wake(): void {
		const wake = this.#wakeConsumer;
		this.#wakeConsumer = undefined;
		wake?.();
	}
}
