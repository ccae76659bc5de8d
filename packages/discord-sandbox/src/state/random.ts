/**
 * Seeded pseudo-random numbers, so that one seed always builds the same guild.
 *
 * `Random` is a sequential generator (sfc32, small and fast with good statistics);
 * `hash32` derives a value from a seed and an index without any state, which lets the member
 * store compute a member's name from its index on demand instead of keeping a string per member.
 */
export class Random {
	#a: number;
	#b: number;
	#c: number;
	#d: number;

	public constructor(seed: number) {
		this.#a = 0x9e3779b9;
		this.#b = 0x243f6a88;
		this.#c = 0xb7e15162;
		this.#d = seed >>> 0;
		for (let i = 0; i < 15; i++) this.nextUint32();
	}

	/** A uniformly distributed unsigned 32-bit integer. */
	public nextUint32(): number {
		const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
		this.#d = (this.#d + 1) | 0;
		this.#a = this.#b ^ (this.#b >>> 9);
		this.#b = (this.#c + (this.#c << 3)) | 0;
		this.#c = (this.#c << 21) | (this.#c >>> 11);
		this.#c = (this.#c + t) | 0;
		return t >>> 0;
	}

	/** A float in [0, 1). */
	public next(): number {
		return this.nextUint32() / 4_294_967_296;
	}

	/** An integer in [0, max). */
	public int(max: number): number {
		return Math.floor(this.next() * max);
	}

	/** One element of a non-empty array. */
	public pick<T>(items: readonly T[]): T {
		return items[this.int(items.length)] as T;
	}
}

/** A stateless 32-bit hash of (seed, index, salt): the same inputs always give the same output. */
export function hash32(seed: number, index: number, salt: number): number {
	let h = Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(index, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35);
	h ^= h >>> 16;
	h = Math.imul(h, 0x7feb352d);
	h ^= h >>> 15;
	h = Math.imul(h, 0x846ca68b);
	h ^= h >>> 16;
	return h >>> 0;
}
