import type { RestoreEntry } from '../../Plan.js';
import { OriginalIndex } from '../OriginalIndex.js';
import type { Originals } from '../Originals.js';
import { loadIndex, readEntryRecords } from '../readEntries.js';
import { MergedRestoreIndex } from './MergedRestoreIndex.js';
import { ReopenedOriginals } from './ReopenedOriginals.js';
import { type RunLayout, scanRuns } from './scanRuns.js';

/** What a restore asks of its journal: each listed member's entry, in listing order mostly. */
export interface RestoreLookup {
	/** The entry a restore uses for `id` (the first journaled since they last joined), or `undefined`. */
	get(id: string): RestoreEntry | undefined;
	/** Lets go of the files. */
	close(): void;
}

/**
 * Past this many stragglers (16 bytes each, see `Stragglers`) a file is in no order a job writes
 * (a hand-made file, or one written in random order): it is loaded whole as before, about 40
 * bytes a member. A job's file has about one a thousand members (its joiners): 100,000 at
 * 100,000,000 members.
 */
export const STRAGGLER_LIMIT = 2_000_000;
/** Past this many runs (a cursor and a 16 KB buffer each) a file is loaded whole too. */
export const RUN_LIMIT = 2_000;

/**
 * The restore entries of a job's files (`paths`, the order the first value wins in), each walked
 * by its ordered runs (see {@link MergedRestoreIndex}), in memory that does not grow with the
 * guild. `workers`: the job's split, by which its members' lines are in order.
 */
export async function openRestoreLookup(
	paths: readonly string[],
	workers: number,
	options: { onWarning?: ((message: string) => void) | undefined } = {},
): Promise<RestoreLookup> {
	const files: RestoreLookup[] = [];
	try {
		for (const path of paths) {
			const layout = await scanRuns(path, workers, () => options.onWarning?.(`${path}: torn last line (a crash mid-write) ignored`));
			if (isOrdered(layout)) files.push(new MergedRestoreIndex(path, layout, workers));
			else {
				const index = await loadIndex(path, options);
				files.push({ get: (id) => index.get(id), close: () => undefined });
			}
		}
	} catch (error) {
		for (const file of files) file.close();
		throw error;
	}
	return {
		get(id) {
			for (const file of files) {
				const entry = file.get(id);
				if (entry) return entry;
			}
			return undefined;
		},
		close() {
			for (const file of files) file.close();
		},
	};
}

/** Whether a file's lines are in an order a job writes, so that walking its runs is worth it. */
function isOrdered(layout: RunLayout): boolean {
	return layout.stragglers.length <= STRAGGLER_LIMIT && layout.runs.length <= RUN_LIMIT;
}

/**
 * The originals of the journal at `path` for a job that goes on appending to it (see
 * {@link ReopenedOriginals}): read from its ordered runs, in memory that does not grow with the
 * guild; a file in no order a job writes is indexed whole, about 20 bytes a member. Its size
 * counts originals less `left` lines, as a `Journal` writes them (an original only for a member
 * without one, a `left` only for one with one): it is what a continued job reports as done before.
 */
export async function openOriginals(path: string, workers: number, options: { onWarning?: ((message: string) => void) | undefined } = {}): Promise<Originals> {
	const layout = await scanRuns(path, workers, () => options.onWarning?.(`${path}: torn last line (a crash mid-write) ignored`));
	if (isOrdered(layout)) return new ReopenedOriginals(new MergedRestoreIndex(path, layout, workers), Math.max(0, layout.originals - layout.leftLines));
	const originals = new OriginalIndex();
	for await (const record of readEntryRecords(path, options)) {
		if (record.type === 'original') originals.add(record.id, record.from);
		else originals.forget(record.id);
	}
	return originals;
}
