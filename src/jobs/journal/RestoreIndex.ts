import type { RestoreEntry } from '../Plan.js';
import { SnowflakeTable } from './SnowflakeTable.js';
import { NO_REFERENCE, StringStore } from './StringStore.js';

/** What `/restore` asks of a journal read whole: each member's entry by id. */
export interface RestoreIndex {
	/** The first entry journaled for `id`, or `undefined` if there is none. */
	get(id: string): RestoreEntry | undefined;
	readonly size: number;
	/** Every journaled id, in journal order. */
	keys(): IterableIterator<string>;
}

/** A row's values: references of `from` and `to` in the names (0: `null`; `NO_REFERENCE` in `from`: forgotten). */
const FROM = 0;
const TO = 1;

/**
 * A {@link RestoreIndex} in about 40 bytes per member (16 in the table's row, 5 to 11 in its hash
 * slots, the UTF-8 bytes of both names) where a `Map<string, RestoreEntry>` took about 170. `to`
 * is kept, not only `from`, because a restore leaves alone a member whose value is no longer
 * the one the job set. Entries are built on each `get`: a restore asks once per member.
 *
 * A member who left with what the job set (a `left` line) is forgotten: their row stays, marked,
 * and their next entry, if one comes, is their first anew.
 */
export class CompactRestoreIndex implements RestoreIndex {
	readonly #ids = new SnowflakeTable(2);
	readonly #names = new StringStore();
	#forgotten = 0;

	get size(): number {
		return this.#ids.size - this.#forgotten;
	}

	get(id: string): RestoreEntry | undefined {
		const row = this.#ids.find(id);
		return row === -1 ? undefined : this.#entry(row, id);
	}

	*keys(): IterableIterator<string> {
		const ids = this.#ids;
		for (let row = 0; row < ids.size; row++) if (ids.get(row, FROM) !== NO_REFERENCE) yield ids.idOf(row);
	}

	has(id: string): boolean {
		const row = this.#ids.find(id);
		return row !== -1 && this.#ids.get(row, FROM) !== NO_REFERENCE;
	}

	/**
	 * Every entry, ordered by member id as a number (see `SnowflakeTable.rowsInIdOrder`): sorted
	 * once, walked as often as asked, each time without the members forgotten since.
	 */
	inIdOrder(): Iterable<RestoreEntry> {
		const rows = this.#ids.rowsInIdOrder();
		const entryOf = (row: number) => this.#entry(row);
		return {
			*[Symbol.iterator]() {
				for (const row of rows) {
					const entry = entryOf(row);
					if (entry) yield entry;
				}
			},
		};
	}

	/** Adds `entry` unless its id has one already (the first wins; a forgotten member's next is their first anew); says whether it did. */
	add(entry: RestoreEntry): boolean {
		let row = this.#ids.add(entry.id);
		if (row === -1) {
			row = this.#ids.find(entry.id);
			if (this.#ids.get(row, FROM) !== NO_REFERENCE) return false;
			this.#forgotten--;
		}
		this.#ids.set(row, FROM, this.#names.add(entry.from));
		this.#ids.set(row, TO, this.#names.add(entry.to));
		return true;
	}

	/** Forgets `id`'s entry (they left with what the job set); says whether there was one. */
	forget(id: string): boolean {
		const row = this.#ids.find(id);
		if (row === -1 || this.#ids.get(row, FROM) === NO_REFERENCE) return false;
		this.#ids.set(row, FROM, NO_REFERENCE);
		this.#forgotten++;
		return true;
	}

	#entry(row: number, id?: string): RestoreEntry | undefined {
		const from = this.#ids.get(row, FROM);
		if (from === NO_REFERENCE) return undefined;
		return { id: id ?? this.#ids.idOf(row), from: this.#names.get(from), to: this.#names.get(this.#ids.get(row, TO)) };
	}
}
