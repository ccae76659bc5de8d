import type { Logger } from 'pino';
import type { Job, JobResult } from '../Job.js';
import type { JobJournal } from '../journal/JobJournal.js';
import type { LiveGuildContext } from '../LiveGuildContext.js';
import type { RuleJournal } from '../rules/RuleJournal.js';
import { journalCounts, workerJournalCounts } from './journalCounts.js';

export interface JobRunOptions {
	readonly job: Job;
	/** Where its originals are journaled; none for a dry run, a count, or a fallback with nothing to go back to. */
	readonly journal?: JobJournal | undefined;
	/** Its view of the guild, read again on Discord's role and member events while it runs. */
	readonly context?: LiveGuildContext | undefined;
	/** It has a run record beside its journal, which follows its status message (a start from a slash command). */
	readonly recorded?: boolean | undefined;
	/** A restore whose run record says who ran it: its end is written there, so a restart does not resume it. */
	readonly restoreRecorded?: boolean | undefined;
	/** A standing rule's: how its journal is kept bounded (see `RuleJournal`). */
	readonly rule?: RuleJournal | undefined;
}

/**
 * One run of one job: the {@link Job} with everything that lives as long as it does, its journal,
 * its live view of the guild and what the run record knows of it. The manager keeps runs; what
 * happens at a run's end (its journal's end line) is the run's own.
 */
export class JobRun {
	readonly job: Job;
	readonly journal: JobJournal | undefined;
	readonly context: LiveGuildContext | undefined;
	readonly recorded: boolean;
	readonly restoreRecorded: boolean;
	readonly rule: RuleJournal | undefined;
	/** How many members the journal held when the run started: what earlier runs of the job changed. */
	readonly journaledAtStart: number | undefined;
	/** Its journal files, for people. */
	readonly journalPaths: readonly string[];
	#stoppedByShutdown = false;
	/** Ended for good by {@link endForGood}: it failed, and no restart resumes it. */
	#endedForGood = false;

	constructor({ job, journal, context, recorded = false, restoreRecorded = false, rule }: JobRunOptions) {
		this.job = job;
		this.rule = rule;
		this.journal = journal;
		this.context = context;
		this.recorded = recorded;
		this.restoreRecorded = restoreRecorded;
		this.journaledAtStart = journal?.size;
		this.journalPaths = journal?.paths ?? [];
	}

	/** Cancelled by a shutdown, not by anyone: its journal says `stopped`, and the next start resumes it. */
	stopForShutdown(): void {
		if (this.job.state === 'running' || this.job.state === 'planned') this.#stoppedByShutdown = true;
		this.job.cancel();
	}

	/**
	 * Ends it for good with `error` (a standing rule whose requester lost the permission or rank it
	 * needs): it fails, keeping `error` in its result, and its journal is marked `cancelled` as a
	 * /cancel's is, so no restart resumes it and /restore still undoes it. Returns `false` when it
	 * was ending already (cancelled, failed, or over): nothing more is done then.
	 */
	endForGood(error: Error): boolean {
		const { job } = this;
		if ((job.state !== 'running' && job.state !== 'planned') || job.signal.aborted) return false;
		this.#endedForGood = true;
		job.fail(error);
		return true;
	}

	get stoppedByShutdown(): boolean {
		return this.#stoppedByShutdown;
	}

	/**
	 * Whether its end goes into the run record: a restore that ended by itself or by /cancel is
	 * not resumed; one a shutdown stopped, or that failed (a full disk, say), is, as a job is.
	 */
	endsRestore(result: JobResult): boolean {
		return this.restoreRecorded && result.state !== 'failed' && !this.#stoppedByShutdown;
	}

	/**
	 * Writes the journal's end line for how the run ended, then closes it; failures are logged,
	 * never thrown (the run is over either way). Only a restore that put every member back marks
	 * its journal restored: one with failures, a stopped worker, or members ranked at or above its
	 * requester leaves it open for the next /restore (by someone who reaches them) to finish.
	 *
	 * @param workerCount the fleet's `WORKER_COUNT`: a worker's own file gets its counts only in a journal of as many workers.
	 */
	async closeJournal(result: JobResult, workerCount: number, logger: Logger): Promise<void> {
		const { journal, job } = this;
		if (!journal) return;
		// A compaction under way finishes first: the end line goes into the file it leaves.
		await this.rule?.stop();
		const snapshot = job.progress.snapshot();
		// The whole-guild file gets the job's counts, a worker's file that worker's.
		const countsOf = (workerId: number | undefined) => {
			if (workerId === undefined) return journalCounts(snapshot);
			const worker = snapshot.workers.find((counts) => counts.index === workerId);
			return worker && journal.header.workers === workerCount ? workerJournalCounts(worker) : undefined;
		};
		try {
			if (!job.dryRun) {
				if (job.mode === 'restore') {
					const complete = snapshot.failed === 0 && snapshot.aboveRequester === 0 && result.stoppedWorkers.length === 0;
					if (result.state === 'finished' && complete) await journal.mark('restored', countsOf);
				} else if (result.state === 'finished') await journal.mark('finished', countsOf);
				else if (this.#endedForGood) await journal.mark('cancelled', countsOf);
				else if (result.state === 'cancelled') await journal.mark(this.#stoppedByShutdown ? 'stopped' : 'cancelled', countsOf);
			}
		} catch (error) {
			logger.error({ err: error, job: job.id }, 'could not write the end of the journal');
		}
		try {
			await journal.close();
		} catch (error) {
			logger.error({ err: error, job: job.id }, 'could not close the journal');
		}
	}
}
