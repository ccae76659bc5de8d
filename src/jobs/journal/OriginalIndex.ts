import { SnowflakeTable } from './SnowflakeTable.js';
import { StringStore } from './StringStore.js';

/** The one value of a row: the reference of the original value in the strings (0: `null`). */
const FROM = 0;

/**
 * What a changing job keeps of its journal: every journaled member's value from before the job,
 * by id. About 20 bytes per member (12 in the table's row, 5 to 11 in its hash slots, the bytes
 * of the value if there is one), where a `Map<string, string | null>` took about 75.
 */
export class OriginalIndex {
	readonly #ids = new SnowflakeTable(1);
	readonly #names = new StringStore();

	get size(): number {
		return this.#ids.size;
	}

	has(id: string): boolean {
		return this.#ids.find(id) !== -1;
	}

	/** The value `id` had before the job (`null`: none), or `undefined` if not journaled. */
	originalOf(id: string): string | null | undefined {
		const row = this.#ids.find(id);
		return row === -1 ? undefined : this.#names.get(this.#ids.get(row, FROM));
	}

	/** Adds `id`'s original unless `id` has one already (the first wins); says whether it did. */
	add(id: string, from: string | null): boolean {
		const row = this.#ids.add(id);
		if (row === -1) return false;
		this.#ids.set(row, FROM, this.#names.add(from));
		return true;
	}
}
