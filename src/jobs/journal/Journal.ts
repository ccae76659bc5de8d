import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCodes, JournalError } from '../../errors.js';
import { type FileHandle, guildDir, journalFileName, syncDirectory, writeAll, writeFailed } from './files.js';
import { type CompactionResult, type CompactOptions, compactJournal } from './compactJournal.js';
import { GroupCommit } from './GroupCommit.js';
import { listJournals } from './listJournals.js';
import type { RestoreEntry } from '../Plan.js';
import { OriginalIndex } from './OriginalIndex.js';
import type { Originals } from './Originals.js';
import { loadIndex, readEntries, type ReadJournalOptions } from './readEntries.js';
import { type JournalFileState, readForAppend } from './readForAppend.js';
import type { RestoreIndex } from './RestoreIndex.js';
import type { JournalSummary } from './readSummary.js';
import {
	type JournalCounts,
	type JournalEndState,
	type JournalHeader,
	type JournalHeaderInput,
	headerLine,
	JOURNAL_VERSION,
	leftLine,
	originalLine,
	statusLine,
} from './records.js';

export type { JournalCounts, JournalEndState, JournalHeader, JournalHeaderInput } from './records.js';
export type { JournalState, JournalSummary } from './readSummary.js';
export { loadIndex, readEntries, type ReadJournalOptions } from './readEntries.js';
export type { RestoreIndex } from './RestoreIndex.js';
export type { CompactionResult, CompactOptions } from './compactJournal.js';

/** Journals hold member ids and names: readable by their owner only. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export interface JournalOptions extends ReadJournalOptions {
	/** For the status lines' `at`. */
	now?: () => number;
	/**
	 * `false` opens without the in-memory index of originals: for a restore, which reads the
	 * entries itself and only appends status lines (one index of the guild in memory, not two).
	 */
	index?: boolean;
	/** The file of worker `workerId`'s members alone (`<job>.w<id>.jsonl`); default: every worker's. */
	workerId?: number | undefined;
}

/**
 * The durable, append-only record of every member's value before a job changed it, so the job
 * can be undone. One JSON Lines file per job: `<dataDir>/<guildId>/<jobId>.jsonl`, or one per
 * worker (`<jobId>.w<id>.jsonl`) in a process that holds only some workers (see `JobJournal`).
 *
 * A worker journals a batch before it sends those changes, and {@link recordOriginals} resolves
 * only once the batch is on disk (`fdatasync`), so a crash can lose changes but never an original.
 * Calls that arrive while a write is under way are grouped into the next write ({@link GroupCommit}),
 * so ten workers cost one fsync per round, not ten.
 *
 * One instance per file per process: the workers share it. The first value for an id wins (it is
 * the value from before massnick), across reopenings too. What is journaled while it is open is
 * indexed in memory, about 20 bytes per member (see {@link OriginalIndex}); what the file held when
 * it was reopened is read from its ordered runs on disk (see `ReopenedOriginals`), so a job
 * continued after a crash starts in the memory of a new one.
 *
 * A standing rule's journal gets {@link memberLeft} lines and is {@link compact}ed now and then, so
 * that the file and the index hold what a restore can still use, not months of joiners.
 */
export class Journal {
	readonly path: string;
	readonly header: JournalHeader;
	/** The worker whose members this file journals; `undefined`: every worker's. */
	readonly workerId: number | undefined;
	readonly #writes: GroupCommit;
	readonly #now: () => number;
	/** Member id → original value, for every id journaled or queued. */
	#originals: Originals;
	/** What the journal opened with: kept to be closed, though a compaction replaced it (it may fail and give it back). */
	readonly #opened: Originals;
	/** The file's size after its last compaction, without what was appended since (0: never compacted). */
	#compactedBytes: number;
	#compacting: Promise<CompactionResult | undefined> | undefined;

	private constructor(path: string, header: JournalHeader, workerId: number | undefined, handle: FileHandle, state: JournalFileState, now: () => number) {
		this.path = path;
		this.header = header;
		this.workerId = workerId;
		this.#writes = new GroupCommit(path, handle, state.bytes);
		this.#originals = state.originals;
		this.#opened = state.originals;
		this.#compactedBytes = state.compactedBytes;
		this.#now = now;
	}

	/** Where the journal of `jobId` lives (of worker `workerId`'s members alone, when given). */
	static pathOf(dataDir: string, guildId: string, jobId: string, workerId?: number): string {
		return join(guildDir(dataDir, guildId), journalFileName(jobId, workerId));
	}

	/**
	 * Starts the journal of a new job: creates the directories (0700) and the file (0600) with its
	 * header, durably.
	 *
	 * @throws {JournalError} `JOURNAL_EXISTS` if the job already has a journal.
	 */
	static async create(dataDir: string, input: JournalHeaderInput, options: JournalOptions = {}): Promise<Journal> {
		const path = Journal.pathOf(dataDir, input.guildId, input.jobId, options.workerId);
		const dir = guildDir(dataDir, input.guildId);
		await mkdir(dir, { recursive: true, mode: DIR_MODE });
		// mkdir's mode goes through the umask; set it explicitly, and tighten a directory left looser.
		await chmod(dir, DIR_MODE);
		let handle: FileHandle;
		try {
			handle = await open(path, 'wx', FILE_MODE);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
				throw new JournalError(ErrorCodes.JournalExists, `Job ${input.jobId} already has a journal at ${path}.`);
			}
			throw writeFailed(path, error);
		}
		const head = headerLine(input);
		try {
			await handle.chmod(FILE_MODE);
			await writeAll(handle, head);
			await handle.datasync();
			await syncDirectory(dir);
		} catch (error) {
			await handle.close();
			throw writeFailed(path, error);
		}
		const header: JournalHeader = { type: 'job', version: JOURNAL_VERSION, ...input };
		const state = { originals: new OriginalIndex(), bytes: Buffer.byteLength(head, 'utf8'), compactedBytes: 0 };
		return new Journal(path, header, options.workerId, handle, state, options.now ?? Date.now);
	}

	/**
	 * Opens an existing journal to go on appending (a rerun of the same job, or marking it). Finds
	 * its ordered runs to answer for the originals it holds (see `readForAppend`); drops a torn last line left by a crash (it was never
	 * acknowledged) so the next append starts on a line of its own; tightens the file's mode.
	 *
	 * @throws {JournalError} `JOURNAL_NOT_FOUND`, or `JOURNAL_CORRUPT` if the header is unreadable.
	 */
	static async open(dataDir: string, guildId: string, jobId: string, options: JournalOptions = {}): Promise<Journal> {
		const path = Journal.pathOf(dataDir, guildId, jobId, options.workerId);
		const { header, ...state } = await readForAppend(path, { guildId, jobId, index: options.index !== false, onWarning: options.onWarning });
		try {
			const handle = await open(path, 'a', FILE_MODE);
			await handle.chmod(FILE_MODE);
			return new Journal(path, header, options.workerId, handle, state, options.now ?? Date.now);
		} catch (error) {
			throw writeFailed(path, error);
		}
	}

	/** Every journal of the guild with its state, newest first (see {@link listJournals}). */
	static list(dataDir: string, guildId: string, options: ReadJournalOptions = {}): Promise<JournalSummary[]> {
		return listJournals(dataDir, guildId, options);
	}

	/** How many members are journaled (or queued to be). */
	get size(): number {
		return this.#originals.size;
	}

	/** Whether `id` is journaled (or queued to be). */
	has(id: string): boolean {
		return this.#originals.has(id);
	}

	/** The value `id` had before the job (`null`: none), or `undefined` if not journaled. */
	originalOf(id: string): string | null | undefined {
		return this.#originals.originalOf(id);
	}

	/**
	 * Durably records originals: resolves once every entry, and every entry of earlier calls, is
	 * on disk. Ids already journaled keep their first value and are not written again.
	 *
	 * @throws {JournalError} `JOURNAL_WRITE_FAILED` if the disk refused (the journal then refuses
	 * every later call: nothing may be changed without its original on disk), `JOURNAL_CLOSED`.
	 */
	recordOriginals(entries: readonly RestoreEntry[]): Promise<void> {
		const lines: string[] = [];
		for (const entry of entries) {
			if (this.#originals.add(entry.id, entry.from)) lines.push(originalLine(entry));
		}
		return this.#writes.append(lines);
	}

	/**
	 * `id` left the guild and what the job set went with them (the action says so, see
	 * `MassAction.entryLife`): their original is forgotten, and a `left` line says so on disk, so a
	 * compaction drops it, a restore leaves them alone, and their next change, should they join
	 * again, journals their original anew. Nothing for a member the journal does not hold.
	 *
	 * @throws {JournalError} as {@link recordOriginals} does
	 */
	memberLeft(id: string): Promise<void> {
		if (!this.#originals.forget(id)) return Promise.resolve();
		return this.#writes.append([leftLine(id)]);
	}

	/** The file's size in bytes now. */
	get bytes(): number {
		return this.#writes.size;
	}

	/** Its size after its last compaction, without what was appended since; 0 if never compacted. */
	get compactedBytes(): number {
		return this.#compactedBytes;
	}

	/**
	 * Rewrites the file as one line per member a restore can still use, in id order, while appends
	 * go on (see {@link compactJournal}); the index in memory shrinks with it. One at a time: a call
	 * while one runs gets that one. `undefined` when the journal is closed or refuses writes already.
	 *
	 * @throws {JournalError} `JOURNAL_WRITE_FAILED` when the new file could not be written (the
	 * journal goes on as it was) or its folder flushed (the journal then refuses every later append)
	 */
	compact(options: CompactOptions = {}): Promise<CompactionResult | undefined> {
		this.#compacting ??= compactJournal(
			{
				path: this.path,
				header: this.header,
				writes: this.#writes,
				originals: this.#originals,
				compacted: (originals, compactedBytes) => {
					this.#originals = originals;
					if (compactedBytes !== undefined) this.#compactedBytes = compactedBytes;
				},
			},
			{ now: this.#now, ...options },
		).finally(() => {
			this.#compacting = undefined;
		});
		return this.#compacting;
	}

	/** Streams this journal's originals from disk (see {@link readEntries}). */
	entries(options: ReadJournalOptions = {}): AsyncGenerator<RestoreEntry> {
		return readEntries(this.path, options);
	}

	/** Every original by id, read from disk (see {@link loadIndex}). */
	loadIndex(options: ReadJournalOptions = {}): Promise<RestoreIndex> {
		return loadIndex(this.path, options);
	}

	markFinished(counts?: JournalCounts): Promise<void> {
		return this.#mark('finished', counts);
	}

	markCancelled(counts?: JournalCounts): Promise<void> {
		return this.#mark('cancelled', counts);
	}

	/** Marks this journal as stopped by a shutdown: unfinished, and to be resumed. */
	markStopped(counts?: JournalCounts): Promise<void> {
		return this.#mark('stopped', counts);
	}

	/** Marks this journal as undone by a restore job. */
	markRestored(counts?: JournalCounts): Promise<void> {
		return this.#mark('restored', counts);
	}

	/** Waits for a compaction under way and pending writes, then closes the file. Later calls throw `JOURNAL_CLOSED`. */
	async close(): Promise<void> {
		await this.#compacting?.catch(() => undefined);
		await this.#writes.close();
		this.#opened.close?.();
	}

	#mark(state: JournalEndState, counts?: JournalCounts): Promise<void> {
		return this.#writes.append([statusLine(state, new Date(this.#now()), counts)]);
	}
}
