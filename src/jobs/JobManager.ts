import { type Admission, engineAdmission } from './admission/index.js';
import type { Job } from './Job.js';
import type { JobJournalSummary } from './journal/JobJournal.js';
import type { JournalHeader } from './journal/Journal.js';
import type { MassAction } from './MassAction.js';
import type { MemberFilters } from './planner.js';
import type { Requester } from './Requester.js';
import type { RequesterRank } from './RequesterRank.js';
import { noJournalError } from './restoreQueries.js';
import { applyRun } from './run/applyRun.js';
import { CountPool } from './run/CountPool.js';
import { GuildJournals } from './run/GuildJournals.js';
import type { JobRun } from './run/JobRun.js';
import { launchRun } from './run/launchRun.js';
import { restoreRun } from './run/restoreRun.js';
import { type RunDeps, runDeps } from './run/RunDeps.js';
import { RunRecordStore } from './run/RunRecordStore.js';
import { RunSlot } from './run/RunSlot.js';
import { StandingRules } from './rules/StandingRules.js';
import type { JobManagerOptions, StartedRestore, StartJobOptions, StartRestoreOptions } from './run/StartOptions.js';

/**
 * Admits jobs and runs them, one changing job at a time per guild, each tied to its journal. It
 * knows jobs by their action's type and target only: what a job changes is the action's business.
 * Its parts are modules of their own: the {@link admission}, the run slot, the {@link journals},
 * the run {@link records}, the counts; a {@link JobRun} holds everything one job's run owns.
 *
 * A journal stays open until a /restore undoes it: the same action and target again appends to
 * it, whose first value per member wins, so /restore brings back what members had before the
 * first run. Another target starts a new journal; /restore undoes the newest open one first.
 */
export class JobManager {
	/** The one way a job is let in: at the command, at Start, at a resume (see `Admission`). */
	readonly admission: Admission;
	readonly journals: GuildJournals;
	readonly records: RunRecordStore;
	readonly #options: JobManagerOptions;
	readonly #slot = new RunSlot();
	/** The standing rules: the sweep's, if it keeps, and those following joins (see `StandingRules`). */
	readonly rules = new StandingRules(this.#slot);
	readonly #counts: CountPool;
	readonly #runs = new WeakMap<Job, JobRun>();
	readonly #deps: RunDeps;
	readonly #launch: (run: JobRun) => Job;

	constructor(options: JobManagerOptions) {
		const { config, fleet, logger, guildContext } = options;
		this.#options = options;
		this.journals = new GuildJournals(config, fleet, logger);
		this.records = new RunRecordStore(config.dataDir, config.guildId, logger);
		this.admission = engineAdmission({ fleet, whyBusy: () => this.#slot.whyBusy('sweep'), guildContext, observe: options.observePreconditions });
		this.#deps = runDeps(options, { journals: this.journals, records: this.records, admission: this.admission });
		this.#counts = new CountPool(this.#deps, guildContext);
		const launch = { config, fleet, logger, slot: this.#slot, records: this.records };
		this.#launch = (run) => {
			this.#runs.set(run.job, run);
			options.observeJobs?.(run.job);
			return launchRun(run, launch);
		};
	}

	/** The job that changes members now, if any (dry runs included: they hold the slot briefly). */
	get current(): Job | undefined {
		return this.#slot.current?.job;
	}

	/** The most recent job, running or ended. */
	get last(): Job | undefined {
		return this.#slot.last?.job;
	}

	/** The most recent counting pass (/stats, or /status after a crash). */
	get lastCount(): Job | undefined {
		return this.#counts.last;
	}

	/** The run of `job` (its journal, its record), while the manager knows it. */
	runOf(job: Job): JobRun | undefined {
		return this.#runs.get(job);
	}

	/** Starts `action` over the guild (or counts it, as a dry run), admitted first; a run of an open journal's action and target appends to it. */
	async startJob(action: MassAction, options: StartJobOptions): Promise<Job> {
		// Refused before the journal is touched: nothing of a job out of its requester's reach is kept.
		const { dryRun, startedBy, rank, record, filters = {}, keep } = options;
		this.admission.admit({ action, undo: false, rank, allowed: options.allowed, beside: keep?.catchUp });
		if (keep) this.rules.admit(action, dryRun);
		const journal = options.journal !== false;
		const { kind, yieldListing } = this.#slot.placeFor(keep);
		const build = () => applyRun(this.#deps, { action, dryRun, startedBy, rank, filters, journal, record, keep, yieldListing });
		return this.#launch(await this.#slot.start(kind, build));
	}

	/**
	 * Undoes the newest job not undone yet, whatever its action (see `restoreRun`), admitted first;
	 * a job Discord cannot undo is refused with what it did (see `journalToUndo`).
	 */
	async startRestore(options: StartRestoreOptions): Promise<StartedRestore> {
		const target = await this.journals.toUndo((header) => this.actionOf(header), options);
		if (!target) {
			if (!options.fallback) throw noJournalError(`${await this.journals.elsewhereHint()} ${options.noJournalHint ?? ''}`.trim());
			// The fallback keeps no journal, so the next /restore does not try to undo it.
			return { job: await this.startJob(options.fallback, { ...options, journal: false, record: undefined }), undoes: undefined };
		}
		const { summary, action } = target;
		this.rules.assertEnded(summary.header.jobId);
		const { dryRun, startedBy, rank, record } = options;
		this.admission.admit({ action, undo: true, rank, allowed: options.allowed });
		const run = await this.#slot.start('sweep', () => restoreRun(this.#deps, { summary, action, dryRun, startedBy, rank, record }));
		return { job: this.#launch(run), undoes: summary };
	}

	/**
	 * A dry run that only counts (/stats, an interrupted job's remaining count, a preview's exact
	 * count bounded by `rank`), over the whole guild, beside a job (see `CountPool`).
	 */
	count(action: MassAction, startedBy: Requester, filters: MemberFilters = {}, rank?: RequesterRank): Job {
		return this.#counts.count(action, startedBy, filters, rank);
	}

	/** Cancels the running job; returns it, or `undefined` when none runs. */
	cancel(): Job | undefined {
		const job = this.current;
		if (!job || job.result) return undefined;
		job.cancel();
		return job;
	}

	/** Cancels everything and waits for the journals' last lines (shutdown); a job still running is marked `stopped`, so the next start resumes it. */
	async stop(): Promise<void> {
		await this.#slot.close();
		const runs = this.#slot.running;
		for (const run of runs) run.stopForShutdown();
		const counts = this.#counts.running;
		for (const job of counts) job.cancel();
		await this.records.settled();
		await Promise.all([...runs.map((run) => run.job), ...counts].map((job) => job.ended()));
		await this.#slot.drained();
	}

	/** Throws the `JobError` that says what runs, when a changing job runs or starts. */
	assertIdle(): void {
		const busy = this.#slot.whyBusy('sweep');
		if (busy) throw busy;
	}

	/** The newest journal whose job never finished (`running`, or `stopped` by a shutdown); not a job or rule running now. */
	interrupted(): Promise<JobJournalSummary | undefined> {
		return this.journals.interrupted(this.#slot.running.map((run) => run.job.id));
	}

	/** Closes the interrupted job without going on with it (its journal `cancelled`, its originals kept); `undefined` when none. */
	async closeInterrupted(): Promise<JobJournalSummary | undefined> {
		this.assertIdle();
		const summary = await this.interrupted();
		if (summary) await this.journals.close(summary);
		return summary;
	}

	/** The action that wrote a journal, rebuilt (for a restore, or to count what is left). */
	actionOf(header: JournalHeader): MassAction | undefined {
		return this.#options.actionOf(header);
	}
}
