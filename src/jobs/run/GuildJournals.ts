import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { Fleet } from '../../workers/Fleet.js';
import { type FleetJob, readFleetJobs } from '../fleetJobs.js';
import { JobJournal, type JobJournalSummary, type JournalHolding } from '../journal/JobJournal.js';
import { Journal, type JournalHeader } from '../journal/Journal.js';
import { type JournalToUndoOptions, journalToUndo, type UndoTarget } from '../journalToUndo.js';
import type { MassAction } from '../MassAction.js';
import { newestOpen } from '../restoreQueries.js';

/**
 * The guild's journals as this process sees them: its workers' files (a fleet process sees those
 * of the workers it holds, a process holding every worker every file), and what a job or a
 * restore asks of them.
 */
export class GuildJournals {
	readonly holding: JournalHolding;
	readonly #config: Config;
	readonly #fleet: Fleet;
	readonly #logger: Logger;

	constructor(config: Config, fleet: Fleet, logger: Logger) {
		this.#config = config;
		this.#fleet = fleet;
		this.#logger = logger;
		this.holding = fleet.scope;
	}

	/** Every job journaled by this process's workers, newest first. */
	list(): Promise<JobJournalSummary[]> {
		return JobJournal.list(this.#config.dataDir, this.#config.guildId, this.holding);
	}

	/** The newest journal not undone yet: what /restore would undo. */
	async lastOpen(): Promise<JobJournalSummary | undefined> {
		return newestOpen(await this.list());
	}

	/** What a restore undoes, its action rebuilt by `actionOf`: the newest job that can be undone (see `journalToUndo`). */
	async toUndo(actionOf: (header: JournalHeader) => MassAction | undefined, options: JournalToUndoOptions): Promise<UndoTarget | undefined> {
		return journalToUndo(await this.list(), actionOf, options);
	}

	/** The newest journal whose job never finished (`running` or `stopped`), but those of the jobs `running` now. */
	async interrupted(running: readonly string[]): Promise<JobJournalSummary | undefined> {
		const journals = await this.list();
		return journals.find((journal) => (journal.state === 'running' || journal.state === 'stopped') && !running.includes(journal.header.jobId));
	}

	/** Marks an interrupted job's journal `cancelled`, so no restart resumes it; its originals stay. */
	async close(summary: JobJournalSummary): Promise<void> {
		await JobJournal.cancelUnfinished(this.#config.dataDir, summary);
		this.#logger.info({ job: summary.header.jobId, title: summary.header.title }, 'interrupted job closed without resuming it');
	}

	/**
	 * The guild's jobs in the fleet's journals (`FLEET_JOURNALS_DIR`, and this process's own files
	 * when it holds some workers), newest first; `undefined` when FLEET_JOURNALS_DIR is unset.
	 *
	 * @throws {JobError} `FLEET_JOURNALS_UNREADABLE` when the folder cannot be read.
	 */
	async fleetJobs(): Promise<FleetJob[] | undefined> {
		const config = this.#config;
		if (config.fleetJournalsDir === undefined) return undefined;
		return readFleetJobs(config.fleetJournalsDir, config.guildId, {
			alsoDataDirs: this.#fleet.size > 0 ? [config.dataDir] : [],
			onWarning: (message) => this.#logger.warn(message),
		});
	}

	/**
	 * Why a fleet process finds nothing to undo when there is something: a journal its data folder
	 * holds for every worker, or for workers it does not hold. Empty when there is none.
	 */
	async elsewhereHint(): Promise<string> {
		const { dataDir, guildId } = this.#config;
		const fleet = this.#fleet;
		const others = ((await fleet.scope.elsewhere(() => Journal.list(dataDir, guildId))) ?? []).filter((summary) => summary.state !== 'restored');
		if (others.length === 0) return '';
		const files = others.map((summary) => summary.path).join(', ');
		return ` This process holds workers ${fleet.ids.join(', ')} of ${fleet.count}, and journals of other workers are here (${files}): restore them with the processes holding those workers, or with a massnick holding every worker.`;
	}
}
