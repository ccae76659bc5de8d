import type { Logger } from 'pino';
import { type OldBossNotes, readRunFile, type RunFile, type RunRecord, writeRunRecord } from '../journal/runRecord.js';

/**
 * The run records beside a guild's journals (see {@link RunRecord}), written one after another:
 * an update is a read, then a write of the whole file, so two at once would lose one.
 */
export class RunRecordStore {
	readonly #dataDir: string;
	readonly #guildId: string;
	readonly #logger: Logger;
	#writes: Promise<unknown> = Promise.resolve();

	constructor(dataDir: string, guildId: string, logger: Logger) {
		this.#dataDir = dataDir;
		this.#guildId = guildId;
		this.#logger = logger;
	}

	/** Who asked for job `jobId` and where; `undefined` when none is kept. */
	async read(jobId: string): Promise<RunRecord | undefined> {
		return (await this.#readFile(jobId))?.record;
	}

	/** Writes a job's record; `false`, having logged why, when it could not. */
	async write(jobId: string, record: RunRecord): Promise<boolean> {
		const write = this.#writes.then(() => writeRunRecord(this.#dataDir, this.#guildId, jobId, record));
		this.#writes = write.catch(() => undefined);
		try {
			await write;
			return true;
		} catch (error) {
			this.#logger.warn({ err: error, job: jobId }, 'could not keep who asked for the job beside its journal: a restart will not resume it');
			return false;
		}
	}

	/**
	 * Changes job `jobId`'s record, after any change asked for before; nothing when it has none. A
	 * failure only logs: the record serves a later resume, never the job itself.
	 */
	update(jobId: string, change: Partial<RunRecord>): Promise<void> {
		const update = this.#writes.then(async () => {
			try {
				const file = await this.#readFile(jobId);
				// Notes an older massnick left in it stay until the boss takes them (see takeOldNotes).
				if (file) await writeRunRecord(this.#dataDir, this.#guildId, jobId, { ...file.record, ...change }, file.oldNotes);
			} catch (error) {
				this.#logger.warn({ err: error, job: jobId }, 'could not update the run record beside the journal');
			}
		});
		this.#writes = update;
		return update;
	}

	/**
	 * Hands the notes an older massnick kept for the boss in job `jobId`'s record (its channel, its
	 * status message, why it was not resumed) to `keep`, then writes the record without them: the
	 * boss keeps them now. Nothing when the record has none. `keep` runs first, so a crash in
	 * between leaves them in the record, to be handed over again.
	 */
	takeOldNotes(jobId: string, keep: (notes: OldBossNotes) => Promise<void>): Promise<void> {
		const take = this.#writes.then(async () => {
			const file = await this.#readFile(jobId);
			if (!file?.oldNotes) return;
			await keep(file.oldNotes);
			await writeRunRecord(this.#dataDir, this.#guildId, jobId, file.record);
		});
		this.#writes = take.catch(() => undefined);
		return take;
	}

	#readFile(jobId: string): Promise<RunFile | undefined> {
		return readRunFile(this.#dataDir, this.#guildId, jobId, (message) => this.#logger.warn(message));
	}

	/** Resolves once every write asked for so far is done. */
	async settled(): Promise<void> {
		await this.#writes;
	}
}
