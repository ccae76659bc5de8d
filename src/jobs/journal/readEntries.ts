import type { RestoreEntry } from '../Plan.js';
import { type LeftRecord, type OriginalRecord, parseRecord } from './records.js';
import { readLines } from './readLines.js';
import { CompactRestoreIndex, type RestoreIndex } from './RestoreIndex.js';

export interface ReadJournalOptions {
	/** Told about lines that are skipped (torn by a crash, or not records); reading goes on. */
	onWarning?: ((message: string) => void) | undefined;
}

/** The lines of a journal that say who it holds: an original, or a member who left with what the job set. */
export type EntryRecord = OriginalRecord | LeftRecord;

/**
 * Streams the originals and `left` lines of the journal at `path`, in the order they were written,
 * without holding the file in memory: a `left` voids the originals of its member before it.
 */
export async function* readEntryRecords(path: string, { onWarning }: ReadJournalOptions = {}): AsyncGenerator<EntryRecord> {
	const torn = (line: { number: number }) => onWarning?.(`${path}:${line.number}: torn last line (a crash mid-write) ignored`);
	for await (const line of readLines(path, torn)) {
		const record = parseRecord(line.text);
		if (typeof record === 'string') onWarning?.(`${path}:${line.number}: skipped, the line ${record}`);
		else if (record.type === 'original' || record.type === 'left') yield record;
	}
}

/**
 * Streams the originals of the journal at `path`, in the order they were written. An id journaled
 * twice (first value wins; or again after a `left`, which this does not apply) is yielded twice:
 * use {@link loadIndex} when that matters.
 */
export async function* readEntries(path: string, options: ReadJournalOptions = {}): AsyncGenerator<RestoreEntry> {
	for await (const record of readEntryRecords(path, options)) {
		if (record.type === 'original') yield { id: record.id, from: record.from, to: record.to };
	}
}

/** Applies one line to `index`: an original is added unless its member has one (the first wins), a `left` forgets them. */
export function addRecord(index: CompactRestoreIndex, record: EntryRecord): void {
	if (record.type === 'left') index.forget(record.id);
	else index.add({ id: record.id, from: record.from, to: record.to });
}

/**
 * Every original in the journal at `path`, by member id; the first value for an id wins, since
 * it is the value the member had before massnick touched them (since they last joined, for a
 * member a `left` line says left). About 40 bytes per member (see {@link CompactRestoreIndex}):
 * 400 MB for a guild of 10,000,000.
 */
export async function loadIndex(path: string, options: ReadJournalOptions = {}): Promise<RestoreIndex> {
	const index = new CompactRestoreIndex();
	for await (const record of readEntryRecords(path, options)) addRecord(index, record);
	return index;
}
