import { openSync } from 'node:fs';
import type { RestoreEntry } from '../../Plan.js';
import { FileLines } from './FileLines.js';
import { partitionOf } from './lineIds.js';
import { RunCursor } from './RunCursor.js';
import type { RunLayout } from './scanRuns.js';
import { Stragglers } from './Stragglers.js';

/**
 * Each member's restore entry from one journal file, found by walking its ordered runs beside the
 * listing (a {@link RunCursor} each) instead of loading every member: memory is a cursor per run
 * and 16 bytes a straggler (see `scanRuns`, {@link Stragglers}), whatever the guild's size.
 *
 * The answer is the one loading the file whole gives (`loadIndex`): of a member's originals, the
 * first written after their last `left` line (the first wins; a `left` voids those before it).
 * Offsets order the lines across runs and stragglers, as the file's order did.
 */
export class MergedRestoreIndex {
	readonly #fd: number;
	readonly #workers: number;
	readonly #lefts: ReadonlyMap<string, number>;
	/** The lines in no run, by member. */
	readonly #stragglers: Stragglers;
	/** Each worker's cursors, by the run's place in the file. */
	readonly #cursors = new Map<number, RunCursor[]>();
	readonly #reader: FileLines;

	constructor(path: string, layout: RunLayout, workers: number) {
		this.#fd = openSync(path, 'r');
		this.#workers = workers;
		this.#lefts = layout.lefts;
		this.#reader = new FileLines(this.#fd);
		this.#stragglers = new Stragglers(layout.stragglers, this.#reader);
		const skip = Float64Array.from(layout.stragglers);
		for (const run of layout.runs) {
			const cursor = new RunCursor(run, workers, new FileLines(this.#fd), this.#reader, skip);
			const list = this.#cursors.get(run.partition);
			if (list) list.push(cursor);
			else this.#cursors.set(run.partition, [cursor]);
		}
	}

	/** The entry a restore uses for `id`, or `undefined` if the file holds none (or a `left` voided it). */
	get(id: string): RestoreEntry | undefined {
		const voidedUntil = this.#lefts.get(id) ?? -1;
		const best = this.#stragglers.first(id, voidedUntil);
		const partition = partitionOf(id, this.#workers);
		const cursors = partition < 0 ? undefined : this.#cursors.get(partition);
		if (cursors === undefined) return best?.entry;
		let bestOffset = best?.offset ?? Number.POSITIVE_INFINITY;
		let fromRun: RunCursor | undefined;
		// Every cursor of the worker is asked, so that each keeps pace with the listing.
		for (let i = 0; i < cursors.length; i++) {
			const cursor = cursors[i]!;
			const offset = cursor.offsetOf(id);
			if (offset > voidedUntil && offset < bestOffset) {
				bestOffset = offset;
				fromRun = cursor;
			}
		}
		return fromRun ? fromRun.entryAt(bestOffset) : best?.entry;
	}

	close(): void {
		this.#reader.close();
	}
}
