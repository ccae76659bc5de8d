import { workerIndexOf } from '../../workers/partition.js';
import { MEMBER_PAGE_SIZE } from '../listMembers.js';

/**
 * Which slices a job works and where each member goes: one slice per worker id this job works
 * (this process's workers, or all of the fleet's for a count), and for any member the place of
 * its owner's slice, or -1 when another process holds the owner.
 *
 * Pure: it knows worker ids, never workers, so the snowflake rule of `partition.ts` decides alone.
 */
export class SliceLayout {
	/** The worker id of each slice, in place order. */
	readonly ids: readonly number[];
	/** Worker id → its slice's place, or -1 for a worker another process holds. */
	readonly #placeOf: Int32Array;

	/**
	 * `workerCount`: N, the workers the guild is split between (the fleet's `WORKER_COUNT`);
	 * `ids`: the worker ids this job works, each below N.
	 */
	constructor(workerCount: number, ids: readonly number[]) {
		this.ids = [...ids];
		this.#placeOf = new Int32Array(workerCount).fill(-1);
		this.ids.forEach((id, place) => {
			if (!Number.isSafeInteger(id) || id < 0 || id >= workerCount) throw new RangeError(`worker ${id} is not one of the ${workerCount} workers`);
			this.#placeOf[id] = place;
		});
	}

	/**
	 * The slices of a job: the workers this process holds, or with `wholeGuild` every worker id of
	 * the fleet (a count plans every member, wherever its worker runs).
	 */
	static of(options: { workerCount: number; held: readonly number[]; wholeGuild?: boolean | undefined }): SliceLayout {
		const { workerCount, held, wholeGuild } = options;
		return new SliceLayout(workerCount, wholeGuild ? Array.from({ length: workerCount }, (_, id) => id) : held);
	}

	/** N, the workers the guild is split between. */
	get workerCount(): number {
		return this.#placeOf.length;
	}

	/** The place of the slice that takes `memberId`, or -1 when its worker runs elsewhere. */
	placeOf(memberId: string): number {
		return this.#placeOf[workerIndexOf(memberId, this.#placeOf.length)]!;
	}

	/**
	 * How many members each slice's queue holds before the listing waits: room for two pages'
	 * share on top of what is in flight. A worker finds 1000 ÷ N of each page, wherever the others
	 * run; sized by this process's slices instead, a pod holding one worker of 49 would list a
	 * hundred pages before its first change, with the other pods on the same listing token.
	 */
	queueCapacity(maxInFlight: number): number {
		return Math.max(maxInFlight * 4, Math.ceil((2 * MEMBER_PAGE_SIZE) / Math.max(1, this.workerCount)));
	}
}
