import type { SlotValue } from '../../Plan.js';
import { OriginalIndex } from '../OriginalIndex.js';
import type { Originals } from '../Originals.js';
import type { MergedRestoreIndex } from './MergedRestoreIndex.js';

/**
 * The originals of a journal reopened to go on appending (a job continued after a crash, a
 * rerun), without an index of every member in memory: what the file held when it was opened is
 * read from the file by its ordered runs (a {@link MergedRestoreIndex}: a cursor per run, as a
 * restore walks it), and only what this process appends is indexed in memory, as a new job's
 * journal is. A continued job asks in the order its workers list, each worker its own members in
 * id order, which is the order the cursors walk; a joiner or a member who left is found by a
 * binary search over the run's bytes.
 *
 * The answers are those of an index built by reading the file whole: the first original of a
 * member wins, a `left` forgets it, and their next original is their first anew.
 */
export class ReopenedOriginals implements Originals {
	/** The file as it was opened: every line before what this process appends. */
	readonly #onDisk: MergedRestoreIndex;
	/** Members of the file who have an original there, as counted when it was opened. */
	readonly #onDiskSize: number;
	/** What this process appended. */
	readonly #appended = new OriginalIndex();
	/** Members whose original in the file was forgotten since it was opened (they left). */
	readonly #forgotten = new Set<string>();

	constructor(onDisk: MergedRestoreIndex, onDiskSize: number) {
		this.#onDisk = onDisk;
		this.#onDiskSize = onDiskSize;
	}

	get size(): number {
		return this.#onDiskSize - this.#forgotten.size + this.#appended.size;
	}

	has(id: string): boolean {
		return this.originalOf(id) !== undefined;
	}

	originalOf(id: string): SlotValue | undefined {
		const appended = this.#appended.originalOf(id);
		if (appended !== undefined) return appended;
		return this.#forgotten.has(id) ? undefined : this.#onDisk.get(id)?.from;
	}

	add(id: string, from: SlotValue): boolean {
		if (this.has(id)) return false;
		return this.#appended.add(id, from);
	}

	forget(id: string): boolean {
		if (this.#appended.forget(id)) return true;
		if (this.#forgotten.has(id) || this.#onDisk.get(id) === undefined) return false;
		this.#forgotten.add(id);
		return true;
	}

	close(): void {
		this.#onDisk.close();
	}
}
