import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JournalError } from '../../errors.js';
import type { RestoreEntry } from '../Plan.js';
import { compactingPath, type FileHandle, syncDirectory, writeAll, writeFailed } from './files.js';
import type { GroupCommit } from './GroupCommit.js';
import { OriginalIndex } from './OriginalIndex.js';
import type { Originals } from './Originals.js';
import { addRecord } from './readEntries.js';
import { readLines } from './readLines.js';
import { compactedLine, type JournalHeader, headerLine, originalLine, parseRecord } from './records.js';
import { CompactRestoreIndex } from './RestoreIndex.js';

/** Journals hold member ids and names: readable by their owner only. */
const FILE_MODE = 0o600;
/** The compacted run goes out in writes of about this many bytes. */
const WRITE_BYTES = 1 << 16;

/** Which entries no restore can use any more, besides those a `left` line voids (see `MassAction.entryLife`). */
export interface CompactOptions {
	/** Whether `entry` can no longer be undone at `now`: a timeout that has run out by itself. */
	readonly expired?: ((entry: RestoreEntry, now: number) => boolean) | undefined;
	readonly now?: (() => number) | undefined;
}

/** What a compaction did to one file. */
export interface CompactionResult {
	readonly path: string;
	/** The file's size before, and after (the part appended while it ran included). */
	readonly bytesBefore: number;
	readonly bytesAfter: number;
	/** Members in the compacted run, and those left out (voided by a `left` line, or expired). */
	readonly entries: number;
	readonly dropped: number;
}

/** The journal a compaction works on: its file, its writes, and its index in memory. */
export interface CompactionSubject {
	readonly path: string;
	readonly header: JournalHeader;
	readonly writes: GroupCommit;
	readonly originals: Originals;
	/**
	 * Takes the index to decide appends with: the compacted file's, with that file's size before
	 * anything was appended to it; or, the compaction failed, the old one back (`undefined`).
	 */
	compacted(originals: Originals, compactedBytes: number | undefined): void;
}

/**
 * Rewrites a journal as one line per member still worth restoring, while its job keeps appending:
 *
 * 1. The size on disk is noted between two writes (`end`); appends go on, and what is written
 *    from then on is kept aside in memory too (the tail).
 * 2. The file up to `end` is read into an index, first original per member, `left` lines applied,
 *    expired entries dropped; the header (as the current version), a `compacted` line and the
 *    entries in id order are written to `<file>.compacting` and flushed.
 * 3. Writes are held (lines appended meanwhile wait, their appends unresolved). The index the job
 *    decides with becomes the new file's: the compacted entries, then the tail and the waiting
 *    lines replayed, so nothing changed from here on misses its original. The tail is appended
 *    to the new file, flushed, renamed over the journal, the folder flushed, and the writes go on
 *    into the new file.
 *
 * A crash before the rename leaves the journal whole (the `.compacting` file is deleted when it
 * is next opened); after it, the new file holds every line the old one did that a restore can use.
 * Either way a restore brings back the same members. A failure before the rename gives the old
 * index back and deletes the new file; the journal goes on as it was.
 */
export async function compactJournal(subject: CompactionSubject, options: CompactOptions = {}): Promise<CompactionResult | undefined> {
	const { writes, path } = subject;
	if (writes.failure || writes.closed) return undefined;
	const tail: string[] = [];
	const end = await writes.exclusive(async () => {
		writes.onWritten((text) => tail.push(text));
		return writes.size;
	});
	const temporary = compactingPath(path);
	let part: CompactedPart | undefined;
	try {
		part = await writeCompactedPart(path, end, temporary, subject.header, options);
		const written = part;
		return await writes.exclusive(() => replaceFile(subject, written, tail));
	} catch (error) {
		await part?.handle.close().catch(() => undefined);
		await rm(temporary, { force: true }).catch(() => undefined);
		throw error instanceof JournalError ? error : writeFailed(temporary, error);
	} finally {
		writes.onWritten(undefined);
	}
}

interface CompactedPart {
	/** The new file, open for appending after the compacted part. */
	readonly handle: FileHandle;
	/** Its size so far: header, `compacted` line, the run and the last status line. */
	readonly bytes: number;
	/** Header, `compacted` line and run: what the next compaction's growth is reckoned from. */
	readonly compactedBytes: number;
	readonly originals: OriginalIndex;
	readonly entries: number;
	readonly dropped: number;
}

/** Step 2: the journal up to `end`, compacted into `temporary`, flushed. */
async function writeCompactedPart(path: string, end: number, temporary: string, header: JournalHeader, options: CompactOptions): Promise<CompactedPart> {
	const index = new CompactRestoreIndex();
	let dropped = 0;
	let lastStatus: string | undefined;
	for await (const line of readLines(path, () => undefined, { end })) {
		const record = parseRecord(line.text);
		if (typeof record === 'string') continue;
		// The last line decides the journal's state (see `readSummary`): a status there is kept.
		lastStatus = record.type === 'status' ? line.text : undefined;
		if (record.type === 'original' || record.type === 'left') {
			if (record.type === 'left' && index.has(record.id)) dropped++;
			addRecord(index, record);
		}
	}
	const now = (options.now ?? Date.now)();
	const expired = options.expired;
	let runBytes = 0;
	const ordered = index.inIdOrder();
	for (const entry of ordered) {
		if (expired?.(entry, now)) {
			index.forget(entry.id);
			dropped++;
		} else runBytes += Buffer.byteLength(originalLine(entry), 'utf8');
	}
	const { type: _type, version: _version, ...input } = header;
	const head = headerLine(input) + compactedLine({ at: new Date(now).toISOString(), entries: index.size, runBytes, dropped });
	await rm(temporary, { force: true });
	const handle = await open(temporary, 'ax', FILE_MODE);
	try {
		await handle.chmod(FILE_MODE);
		const originals = new OriginalIndex();
		let chunk = head;
		let bytes = 0;
		for (const entry of ordered) {
			chunk += originalLine(entry);
			originals.add(entry.id, entry.from);
			if (chunk.length >= WRITE_BYTES) {
				bytes += await write(handle, chunk);
				chunk = '';
			}
		}
		bytes += await write(handle, chunk);
		const compactedBytes = bytes;
		if (lastStatus !== undefined) bytes += await write(handle, `${lastStatus}\n`);
		await handle.datasync();
		return { handle, bytes, compactedBytes, originals, entries: index.size, dropped };
	} catch (error) {
		await handle.close().catch(() => undefined);
		throw writeFailed(temporary, error);
	}
}

/** Step 3, with the writes held: the index swapped, the tail copied, the file renamed over the journal. */
async function replaceFile(subject: CompactionSubject, part: CompactedPart, tail: readonly string[]): Promise<CompactionResult> {
	const { writes, path } = subject;
	writes.onWritten(undefined);
	if (writes.failure) throw writes.failure;
	const bytesBefore = writes.size;
	const old = subject.originals;
	const waitingBefore = writes.waiting.length;
	const tailText = tail.join('');
	// From here every append is decided by the new file's index: one for a member the compaction
	// dropped journals their original anew.
	replay(part.originals, tailText);
	for (const line of writes.waiting) replay(part.originals, line);
	subject.compacted(part.originals, part.compactedBytes);
	try {
		await writeAll(part.handle, tailText);
		await part.handle.datasync();
		await rename(compactingPath(path), path);
	} catch (error) {
		// The old file is still the journal: its index again, with what was appended since the swap.
		for (const line of writes.waiting.slice(waitingBefore)) replay(old, line);
		subject.compacted(old, undefined);
		throw writeFailed(path, error);
	}
	const bytesAfter = part.bytes + Buffer.byteLength(tailText, 'utf8');
	const previous = writes.replace(part.handle, bytesAfter);
	await previous.close().catch(() => undefined);
	// Until the rename is durable a crash could bring back the old file without what is appended
	// next: nothing more is written if the folder cannot be flushed.
	try {
		await syncDirectory(dirname(path));
	} catch (error) {
		writes.fail(error);
		throw writes.failure;
	}
	return { path, bytesBefore, bytesAfter, entries: part.entries, dropped: part.dropped };
}

/** Applies the originals and `left` lines in `text` to `index`, as reopening the file would. */
function replay(index: Originals, text: string): void {
	for (const line of text.split('\n')) {
		if (line === '') continue;
		const record = parseRecord(line);
		if (typeof record === 'string') continue;
		if (record.type === 'original') index.add(record.id, record.from);
		else if (record.type === 'left') index.forget(record.id);
	}
}

async function write(handle: FileHandle, text: string): Promise<number> {
	if (text === '') return 0;
	await writeAll(handle, text);
	return Buffer.byteLength(text, 'utf8');
}
