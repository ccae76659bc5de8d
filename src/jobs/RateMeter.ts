/**
 * Events per second over a sliding window, in one-second buckets: constant memory however fast
 * the events come (a change rate of a thousand a second must not keep a thousand timestamps).
 */
export class RateMeter {
	readonly #buckets: Float64Array;
	#second = -1;

	constructor(
		readonly windowSeconds = 30,
		readonly now: () => number = Date.now,
	) {
		this.#buckets = new Float64Array(windowSeconds);
	}

	/** Notes `count` events now. */
	add(count = 1): void {
		this.#advance();
		this.#buckets[this.#second % this.windowSeconds]! += count;
	}

	/**
	 * Events per second over the window, or since `since` (ms) when that is more recent, so a
	 * job a few seconds old shows its real rate rather than a thirtieth of it.
	 */
	perSecond(since?: number): number {
		this.#advance();
		let sum = 0;
		for (const count of this.#buckets) sum += count;
		const elapsedSeconds = since === undefined ? this.windowSeconds : Math.min(this.windowSeconds, (this.now() - since) / 1000);
		return elapsedSeconds > 0 ? sum / Math.max(elapsedSeconds, 1) : 0;
	}

	#advance(): void {
		const second = Math.floor(this.now() / 1000);
		if (this.#second < 0) this.#second = second;
		const steps = Math.min(second - this.#second, this.windowSeconds);
		for (let step = 1; step <= steps; step++) this.#buckets[(this.#second + step) % this.windowSeconds] = 0;
		this.#second = second;
	}
}
