import type { RestoreEntry } from '../Plan.js';
import { SnowflakeTable } from './SnowflakeTable.js';
import { StringStore } from './StringStore.js';

/** What `/restore` asks of a journal read whole: each member's entry by id. */
export interface RestoreIndex {
	/** The first entry journaled for `id`, or `undefined` if there is none. */
	get(id: string): RestoreEntry | undefined;
	readonly size: number;
	/** Every journaled id, in journal order. */
	keys(): IterableIterator<string>;
}

/** A row's values: references of `from` and `to` in the names (0: `null`). */
const FROM = 0;
const TO = 1;

/**
 * A {@link RestoreIndex} in about 40 bytes per member (16 in the table's row, 5 to 11 in its hash
 * slots, the UTF-8 bytes of both names) where a `Map<string, RestoreEntry>` took about 170. `to`
 * is kept, not only `from`, because a restore leaves alone a member whose value is no longer
 * the one the job set. Entries are built on each `get`: a restore asks once per member.
 */
export class CompactRestoreIndex implements RestoreIndex {
	readonly #ids = new SnowflakeTable(2);
	readonly #names = new StringStore();

	get size(): number {
		return this.#ids.size;
	}

	get(id: string): RestoreEntry | undefined {
		const row = this.#ids.find(id);
		if (row === -1) return undefined;
		return { id, from: this.#names.get(this.#ids.get(row, FROM)), to: this.#names.get(this.#ids.get(row, TO)) };
	}

	keys(): IterableIterator<string> {
		return this.#ids.ids();
	}

	/** Adds `entry` unless its id has one already (the first wins); says whether it did. */
	add(entry: RestoreEntry): boolean {
		const row = this.#ids.add(entry.id);
		if (row === -1) return false;
		this.#ids.set(row, FROM, this.#names.add(entry.from));
		this.#ids.set(row, TO, this.#names.add(entry.to));
		return true;
	}
}
