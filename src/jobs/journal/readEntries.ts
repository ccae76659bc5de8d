import type { RestoreEntry } from '../Plan.js';
import { parseRecord } from './records.js';
import { readLines } from './readLines.js';
import { CompactRestoreIndex, type RestoreIndex } from './RestoreIndex.js';

export interface ReadJournalOptions {
	/** Told about lines that are skipped (torn by a crash, or not records); reading goes on. */
	onWarning?: ((message: string) => void) | undefined;
}

/**
 * Streams the originals of the journal at `path`, in the order they were written, without holding
 * the file in memory. An id journaled twice (should not happen; first value wins) is yielded twice:
 * use {@link loadIndex} when that matters.
 */
export async function* readEntries(path: string, { onWarning }: ReadJournalOptions = {}): AsyncGenerator<RestoreEntry> {
	const torn = (line: { number: number }) => onWarning?.(`${path}:${line.number}: torn last line (a crash mid-write) ignored`);
	for await (const line of readLines(path, torn)) {
		const record = parseRecord(line.text);
		if (typeof record === 'string') onWarning?.(`${path}:${line.number}: skipped, the line ${record}`);
		else if (record.type === 'original') yield { id: record.id, from: record.from, to: record.to };
	}
}

/**
 * Every original in the journal at `path`, by member id; the first value for an id wins, since
 * it is the value the member had before massnick touched them. About 40 bytes per member (see
 * {@link CompactRestoreIndex}): 400 MB for a guild of 10,000,000.
 */
export async function loadIndex(path: string, options: ReadJournalOptions = {}): Promise<RestoreIndex> {
	const index = new CompactRestoreIndex();
	for await (const entry of readEntries(path, options)) index.add(entry);
	return index;
}
