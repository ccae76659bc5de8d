import { compareSnowflakes } from '../filters/compareSnowflakes.js';

/**
 * Which of a job's listed user ids (its `userIds` filter) the guild's members had: the listing
 * and the joiners mark each member they meet, and once the listing has gone through the whole
 * guild, the ids left unmarked are users who are not members (they left, or never joined).
 *
 * The ids are sorted, as the filter keeps them, so a member is found by binary search and the
 * tally costs one byte an id.
 */
export class ListedIdsTally {
	readonly #ids: readonly string[];
	readonly #met: Uint8Array;
	#found = 0;
	#complete = false;

	constructor(ids: readonly string[]) {
		this.#ids = ids;
		this.#met = new Uint8Array(ids.length);
	}

	/** How many ids the job was limited to. */
	get total(): number {
		return this.#ids.length;
	}

	/** How many of them were members met so far. */
	get found(): number {
		return this.#found;
	}

	/** A member was listed, or joined: if their id is listed, it is a member's. */
	met(id: string): void {
		let low = 0;
		let high = this.#ids.length - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const order = compareSnowflakes(this.#ids[middle]!, id);
			if (order === 0) {
				if (this.#met[middle] === 0) {
					this.#met[middle] = 1;
					this.#found++;
				}
				return;
			}
			if (order < 0) low = middle + 1;
			else high = middle - 1;
		}
	}

	/** The listing went through the whole guild: the ids not met are not members. */
	listingComplete(): void {
		this.#complete = true;
	}

	/** How many listed ids are not members; `undefined` until the listing has gone through the whole guild. */
	get notMembers(): number | undefined {
		return this.#complete ? this.#ids.length - this.#found : undefined;
	}

	/**
	 * The listed ids no member had, sorted: what an action that reaches users who are not members
	 * (a ban) would be handed, split over the workers by the same rule as members. `undefined`
	 * until the listing has gone through the whole guild.
	 */
	notMet(): string[] | undefined {
		if (!this.#complete) return undefined;
		return this.#ids.filter((_, index) => this.#met[index] === 0);
	}
}
