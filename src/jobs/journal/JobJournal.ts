import { ErrorCodes, JournalError } from '../../errors.js';
import type { FleetScope } from '../../workers/FleetScope.js';
import { workerIndexOf } from '../../workers/partition.js';
import {
	type CompactionResult,
	type CompactOptions,
	Journal,
	type JournalCounts,
	type JournalEndState,
	type JournalHeader,
	type JournalHeaderInput,
	type JournalState,
	type JournalSummary,
	type RestoreIndex,
} from './Journal.js';
import { addRecord, readEntryRecords } from './readEntries.js';
import { CompactRestoreIndex } from './RestoreIndex.js';
import { openRestoreLookup, type RestoreLookup } from './runs/openRestoreLookup.js';
import type { RestoreEntry } from '../Plan.js';

/** The workers a process holds, among `count`: which journal files are its to read and write. */
export type JournalHolding = FleetScope;

/** One file of a job's journal: its size now, and after its last compaction (0: never compacted). */
export interface JournalFileSize {
	readonly path: string;
	readonly bytes: number;
	readonly compactedBytes: number;
}

/** One job as a process finds it on disk: the files of it that are the process's, summed up. */
export interface JobJournalSummary extends JournalSummary {
	/** Each file (`path` is the first's); its own state, counts and worker. */
	readonly files: readonly JournalSummary[];
}

export interface OpenJobJournalOptions {
	/**
	 * For a restore: no index of originals in memory (the restore loads its own), and no file
	 * created for a worker that has none. In a process holding some workers, a held worker's file
	 * missing is an error: its members could not be brought back.
	 */
	restore?: boolean;
}

/**
 * A job's journal as one process keeps it: one file when the process holds every worker
 * (`<job>.jsonl`, the layout from before fleets, so every older journal still opens), or one
 * file per worker it holds (`<job>.w<id>.jsonl`) when a fleet is split over processes. Each
 * process then journals and restores its own workers' members on its own volume, and the
 * files of every process together hold every original.
 *
 * Each member's original goes to the file of the worker that owns it under the job's split
 * (`header.workers`), so a process holding every worker can also restore a fleet's job from
 * all its files gathered in one folder. Each file is a {@link Journal}: durable before a change
 * goes out, first value wins, group commit.
 */
export class JobJournal {
	readonly header: JournalHeader;
	/** Every file open, the whole-guild one first, then by worker id. */
	readonly #journals: readonly Journal[];
	/** The file that takes every member, when the job has one. */
	readonly #whole: Journal | undefined;
	readonly #byWorker: ReadonlyMap<number, Journal>;
	/** What {@link restoreLookup} opened, closed with the journal. */
	readonly #lookups: RestoreLookup[] = [];

	private constructor(journals: Journal[]) {
		const sorted = journals.sort((a, b) => (a.workerId ?? -1) - (b.workerId ?? -1));
		this.#journals = sorted;
		this.header = sorted[0]!.header;
		this.#whole = sorted.find((journal) => journal.workerId === undefined);
		this.#byWorker = new Map(sorted.flatMap((journal) => (journal.workerId === undefined ? [] : [[journal.workerId, journal] as const])));
	}

	/** The files, for people: where the originals are. */
	get paths(): string[] {
		return this.#journals.map((journal) => journal.path);
	}

	/** Members journaled in all files (or queued to be). */
	get size(): number {
		let size = 0;
		for (const journal of this.#journals) size += journal.size;
		return size;
	}

	/** Every job of the guild with files that are `holding`'s, newest first. */
	static async list(
		dataDir: string,
		guildId: string,
		holding: JournalHolding,
		options: { onWarning?: (message: string) => void } = {},
	): Promise<JobJournalSummary[]> {
		const jobs = new Map<string, JournalSummary[]>();
		for (const file of await Journal.list(dataDir, guildId, options)) {
			if (!holding.keepsJournalOf(file.workerId)) continue;
			const files = jobs.get(file.header.jobId);
			if (files) files.push(file);
			else jobs.set(file.header.jobId, [file]);
		}
		return [...jobs.values()].map(summarize);
	}

	/** Starts the journal of a new job: one file, or one per worker held. */
	static async create(dataDir: string, input: JournalHeaderInput, holding: JournalHolding): Promise<JobJournal> {
		const workerIds = holding.newJournalFiles();
		const journals: Journal[] = [];
		try {
			for (const workerId of workerIds) journals.push(await Journal.create(dataDir, input, { workerId }));
		} catch (error) {
			await Promise.allSettled(journals.map((journal) => journal.close()));
			throw error;
		}
		return new JobJournal(journals);
	}

	/**
	 * Opens a job's files to go on appending (a rerun) or to mark it (a restore). A process that
	 * holds some workers creates the file of a held worker that has none yet.
	 *
	 * @throws {JournalError} `JOURNAL_OTHER_SPLIT` when the job split the guild between another
	 * number of workers than this process does (its members would be looked for in the wrong
	 * files), or, for a restore, when a worker's file is missing; the `Journal.open` errors.
	 */
	static async open(dataDir: string, summary: JobJournalSummary, holding: JournalHolding, options: OpenJobJournalOptions = {}): Promise<JobJournal> {
		const { header } = summary;
		const guildId = header.guildId;
		const whole = summary.files.some((file) => file.workerId === undefined);
		if (!holding.journalsSplitOf(header.workers)) {
			throw new JournalError(
				ErrorCodes.JournalOtherSplit,
				`The journal of ${header.title} (${summary.path}) was kept by a fleet of ${header.workers} workers, and this process is one of ${holding.count} (WORKER_COUNT): run it with WORKER_COUNT=${header.workers}, or gather every worker's files of job ${header.jobId} into the data folder of a massnick that holds every worker.`,
			);
		}
		// The files this process journals the job's members in: the whole-guild file if the job has
		// one, else one per worker (each worker of the job's split, for a process holding them all).
		const needed = whole ? [] : holding.journaledWorkers(header.workers);
		const present = new Set(summary.files.map((file) => file.workerId));
		const missing = needed.filter((id) => !present.has(id));
		// A process holding every worker may restore a fleet's files gathered from its processes,
		// each of which named its part of a run itself: a part is a job of its own there, and the
		// workers without a file are the other parts'. A fleet process holds its workers' files.
		if (options.restore && holding.neededToRestore(missing).length > 0) {
			throw new JournalError(
				ErrorCodes.JournalOtherSplit,
				`The journal of ${header.title} has no file for worker${missing.length === 1 ? '' : 's'} ${missing.join(', ')} here (looked for ${missing.map((id) => Journal.pathOf(dataDir, guildId, header.jobId, id)).join(', ')}), so those members' originals cannot be brought back by this process: restore with the processes that kept them, or copy their files here first.`,
			);
		}
		const journals: Journal[] = [];
		try {
			for (const file of summary.files) {
				journals.push(await Journal.open(dataDir, guildId, file.header.jobId, { workerId: file.workerId, index: !options.restore }));
			}
			const { type: _type, version: _version, ...input } = header;
			if (!options.restore) for (const workerId of missing) journals.push(await Journal.create(dataDir, input, { workerId }));
		} catch (error) {
			await Promise.allSettled(journals.map((journal) => journal.close()));
			throw error;
		}
		return new JobJournal(journals);
	}

	/** The value `id` had before the job (`null`: none), or `undefined` if it is not journaled here. */
	originalOf(id: string): string | null | undefined {
		// Its file, not a `??` over both: a `null` original is an answer.
		return this.#fileOf(id)?.originalOf(id);
	}

	/**
	 * Durably records originals, each in its worker's file; resolves once all are on disk.
	 *
	 * @throws {JournalError} a member whose worker's file this process does not keep (a bug: the
	 * job hands out only its own workers' members), and `Journal.recordOriginals`'s errors.
	 */
	async recordOriginals(entries: readonly RestoreEntry[]): Promise<void> {
		if (this.#whole) return this.#whole.recordOriginals(entries);
		const byJournal = new Map<Journal, RestoreEntry[]>();
		for (const entry of entries) {
			const owner = workerIndexOf(entry.id, this.header.workers);
			const journal = this.#byWorker.get(owner);
			if (!journal) throw new JournalError(ErrorCodes.InvalidArgument, `member ${entry.id} is worker ${owner}'s, whose journal this process does not keep`);
			const batch = byJournal.get(journal);
			if (batch) batch.push(entry);
			else byJournal.set(journal, [entry]);
		}
		await Promise.all([...byJournal].map(([journal, batch]) => journal.recordOriginals(batch)));
	}

	/** A member left with what the job set (see `Journal.memberLeft`): said in their worker's file, if this process keeps it. */
	memberLeft(id: string): Promise<void> {
		return this.#fileOf(id)?.memberLeft(id) ?? Promise.resolve();
	}

	/** The file that journals `id`: the whole-guild one, or its worker's, if this process keeps it. */
	#fileOf(id: string): Journal | undefined {
		return this.#whole ?? this.#byWorker.get(workerIndexOf(id, this.header.workers));
	}

	/** Each file's size now and after its last compaction, for deciding when to compact it. */
	get sizes(): JournalFileSize[] {
		return this.#journals.map(({ path, bytes, compactedBytes }) => ({ path, bytes, compactedBytes }));
	}

	/** Compacts the files `due` names (see `Journal.compact`), one after another. */
	async compact(due: (file: JournalFileSize) => boolean, options: CompactOptions): Promise<CompactionResult[]> {
		const results: CompactionResult[] = [];
		for (const journal of this.#journals) {
			if (!due(journal)) continue;
			const result = await journal.compact(options);
			if (result) results.push(result);
		}
		return results;
	}

	/** Every original in the files, by member id (the first wins), read from disk. */
	async loadIndex(options: { onWarning?: (message: string) => void } = {}): Promise<RestoreIndex> {
		const index = new CompactRestoreIndex();
		for (const journal of this.#journals) {
			for await (const record of readEntryRecords(journal.path, options)) addRecord(index, record);
		}
		return index;
	}

	/** Every original in the files for a restore, by merging their ordered runs with the listing (see `openRestoreLookup`); open until the journal closes. */
	async restoreLookup(options: { onWarning?: (message: string) => void } = {}): Promise<RestoreLookup> {
		const lookup = await openRestoreLookup(this.paths, this.header.workers, options);
		this.#lookups.push(lookup);
		return lookup;
	}

	/**
	 * Marks every file `state`, each with its own counts: `countsOf(undefined)` for the
	 * whole-guild file, `countsOf(id)` for worker `id`'s.
	 */
	async mark(state: JournalEndState, countsOf: (workerId: number | undefined) => JournalCounts | undefined): Promise<void> {
		const marks = { finished: 'markFinished', cancelled: 'markCancelled', stopped: 'markStopped', restored: 'markRestored' } as const;
		const results = await Promise.allSettled(this.#journals.map((journal) => journal[marks[state]](countsOf(journal.workerId))));
		const failed = results.find((result) => result.status === 'rejected');
		if (failed) throw failed.reason;
	}

	/**
	 * Marks an unfinished job's files (`running` or `stopped`) cancelled without going on with it:
	 * `/cancel` of a job that was interrupted, so nothing resumes it. Files already ended keep
	 * their state; the originals stay for a rerun or a restore.
	 */
	static async cancelUnfinished(dataDir: string, summary: JobJournalSummary): Promise<void> {
		for (const file of summary.files) {
			if (file.state !== 'running' && file.state !== 'stopped') continue;
			const journal = await Journal.open(dataDir, file.header.guildId, file.header.jobId, { workerId: file.workerId, index: false });
			try {
				await journal.markCancelled();
			} finally {
				await journal.close();
			}
		}
	}

	async close(): Promise<void> {
		for (const lookup of this.#lookups.splice(0)) lookup.close();
		const results = await Promise.allSettled(this.#journals.map((journal) => journal.close()));
		const failed = results.find((result) => result.status === 'rejected');
		if (failed) throw failed.reason;
	}
}

/** Which file's state a job takes, when its files differ: the first of these any open file has. */
const STATE_ORDER: readonly JournalState[] = ['running', 'stopped', 'cancelled', 'finished'];

/**
 * A job's state over its files: restored once every file is, else running if any file is, else
 * stopped (unfinished either way), cancelled, finished.
 */
function summarize(files: JournalSummary[]): JobJournalSummary {
	const first = files[0]!;
	const open = files.filter((file) => file.state !== 'restored');
	const state: JournalState = open.length === 0 ? 'restored' : (STATE_ORDER.find((candidate) => open.some((file) => file.state === candidate)) ?? 'finished');
	const ended = files.map((file) => file.endedAt).filter((at): at is string => at !== undefined);
	const endedAt = state === 'running' || ended.length === 0 ? undefined : ended.sort().at(-1);
	const counted = files.flatMap((file) => (file.counts ? [file.counts] : []));
	return { path: first.path, header: first.header, state, endedAt, counts: counted.length > 0 ? addCounts(counted) : undefined, files };
}

function addCounts(all: readonly JournalCounts[]): JournalCounts {
	const total: Record<string, number | Record<string, number>> = {};
	for (const counts of all) {
		for (const [key, value] of Object.entries(counts)) {
			if (typeof value === 'number') total[key] = ((total[key] as number | undefined) ?? 0) + value;
			else {
				const into = (total[key] ??= {}) as Record<string, number>;
				for (const [reason, count] of Object.entries(value)) into[reason] = (into[reason] ?? 0) + count;
			}
		}
	}
	return total;
}
