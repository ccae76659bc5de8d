import type { RestoreEntry } from '../../Plan.js';
import { loadIndex } from '../readEntries.js';
import { MergedRestoreIndex } from './MergedRestoreIndex.js';
import { scanRuns } from './scanRuns.js';

/** What a restore asks of its journal: each listed member's entry, in listing order mostly. */
export interface RestoreLookup {
	/** The entry a restore uses for `id` (the first journaled since they last joined), or `undefined`. */
	get(id: string): RestoreEntry | undefined;
	/** Lets go of the files. */
	close(): void;
}

/**
 * Past this many stragglers a file is in no order a job writes (a hand-made file, or one written
 * in random order): it is loaded whole as before, about 40 bytes a member, rather than as a
 * list of stragglers costing several times that.
 */
export const STRAGGLER_LIMIT = 200_000;
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
			if (layout.stragglers.length <= STRAGGLER_LIMIT && layout.runs.length <= RUN_LIMIT) files.push(new MergedRestoreIndex(path, layout, workers));
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
