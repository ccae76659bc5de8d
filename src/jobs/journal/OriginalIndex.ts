import { SnowflakeTable } from './SnowflakeTable.js';
import { NO_REFERENCE, StringStore } from './StringStore.js';

/** The one value of a row: the reference of the original value in the strings (0: `null`). */
const FROM = 0;

/**
 * What a changing job keeps of its journal: every journaled member's value from before the job,
 * by id. About 20 bytes per member (12 in the table's row, 5 to 11 in its hash slots, the bytes
 * of the value if there is one), where a `Map<string, string | null>` took about 75.
 *
 * A member can be forgotten (they left, and what the job set went with them: see `LeftRecord`):
 * their row is kept, marked, until a compaction of the journal builds the index anew without it.
 */
export class OriginalIndex {
	readonly #ids = new SnowflakeTable(1);
	readonly #names = new StringStore();
	#forgotten = 0;

	get size(): number {
		return this.#ids.size - this.#forgotten;
	}

	has(id: string): boolean {
		const row = this.#ids.find(id);
		return row !== -1 && this.#ids.get(row, FROM) !== NO_REFERENCE;
	}

	/** The value `id` had before the job (`null`: none), or `undefined` if not journaled. */
	originalOf(id: string): string | null | undefined {
		const row = this.#ids.find(id);
		if (row === -1) return undefined;
		const from = this.#ids.get(row, FROM);
		return from === NO_REFERENCE ? undefined : this.#names.get(from);
	}

	/**
	 * Adds `id`'s original unless `id` has one already (the first wins; a forgotten member's next
	 * original is their first anew); says whether it did.
	 */
	add(id: string, from: string | null): boolean {
		let row = this.#ids.add(id);
		if (row === -1) {
			row = this.#ids.find(id);
			if (this.#ids.get(row, FROM) !== NO_REFERENCE) return false;
			this.#forgotten--;
		}
		this.#ids.set(row, FROM, this.#names.add(from));
		return true;
	}

	/** Forgets `id`'s original; says whether there was one. */
	forget(id: string): boolean {
		const row = this.#ids.find(id);
		if (row === -1 || this.#ids.get(row, FROM) === NO_REFERENCE) return false;
		this.#ids.set(row, FROM, NO_REFERENCE);
		this.#forgotten++;
		return true;
	}
}
