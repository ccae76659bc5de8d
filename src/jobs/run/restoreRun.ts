import { JobJournal, type JobJournalSummary } from '../journal/JobJournal.js';
import type { RestoreRecord } from '../journal/runRecord.js';
import type { MassAction } from '../MassAction.js';
import { planRestore } from '../planner.js';
import type { Requester } from '../Requester.js';
import type { RequesterRank } from '../RequesterRank.js';
import { JobRun } from './JobRun.js';
import type { RunDeps } from './RunDeps.js';

export interface RestoreRunOptions {
	/** The journal it undoes. */
	readonly summary: JobJournalSummary;
	/** The action that wrote it, rebuilt. */
	readonly action: MassAction;
	readonly dryRun: boolean;
	readonly startedBy: Requester;
	readonly rank: RequesterRank;
	/** Who ran the restore and where, kept in the job's run record so that a restart resumes it. */
	readonly record?: RestoreRecord | undefined;
}

/**
 * The undo of a journal's job: every member back to the value journaled before it, only where
 * the value is still the one the job set. The journal is opened to mark it restored at the end;
 * the restore reads the entries itself.
 */
export async function restoreRun(deps: RunDeps, { summary, action, dryRun, startedBy, rank, record }: RestoreRunOptions): Promise<JobRun> {
	const { config } = deps;
	const journal = await JobJournal.open(config.dataDir, summary, deps.journals.holding, { restore: true });
	try {
		// Whatever becomes of the restore, the job it undoes is not to go on by itself; the restore
		// itself is, after a restart, when it says who ran it.
		if (!dryRun) {
			await deps.records.update(summary.header.jobId, {
				restoreStartedAt: record?.startedAt ?? new Date().toISOString(),
				restore: record,
				restoreEndedAt: undefined,
			});
		}
		const entries = await journal.restoreLookup();
		// Finding the journal's runs takes seconds on a large guild: a role moved meanwhile counts.
		deps.admission.recheck('requester-rank', { action, undo: true, rank });
		const context = deps.liveContext(rank);
		const job = deps.buildJob({
			id: summary.header.jobId,
			action,
			mode: 'restore',
			dryRun,
			startedBy,
			plan: (member) => planRestore(member, entries.get(member.id), action, context.get()),
		});
		return new JobRun({ job, journal, context, restoreRecorded: record !== undefined && !dryRun });
	} catch (error) {
		await journal.close();
		throw error;
	}
}
