import type { Client } from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { Fleet } from '../../workers/Fleet.js';
import type { PreconditionObserver } from '../admission/index.js';
import type { GuildContext } from '../GuildContext.js';
import type { Job, KeepOptions } from '../Job.js';
import type { JobJournalSummary } from '../journal/JobJournal.js';
import type { JournalHeader } from '../journal/Journal.js';
import type { RestoreRecord, RunRecord } from '../journal/runRecord.js';
import type { ListingClient } from '../listMembers.js';
import type { MassAction } from '../MassAction.js';
import type { MemberFilters } from '../planner.js';
import type { Requester } from '../Requester.js';
import type { RequesterRank } from '../RequesterRank.js';

export interface StartJobOptions {
	dryRun: boolean;
	startedBy: Requester;
	/**
	 * How far `startedBy` reaches by hand, read from the guild when they started it: the job
	 * reaches no further (a role at or above them is refused, a member at or above them left alone).
	 */
	rank: RequesterRank;
	/** Whether `startedBy` may do what needs a permission (see `AdmissionRequest.allowed`); absent for the operator. */
	allowed?: ((permission: bigint) => boolean) | undefined;
	/** Who the job is about besides its action. */
	filters?: MemberFilters | undefined;
	/** Journal what the job changes, so /restore can undo it. Default true. */
	journal?: boolean | undefined;
	/** Who asked and where, kept beside the journal so a restart can resume the job (see {@link RunRecord}); none for a dry run. */
	record?: RunRecord | undefined;
	/** Make it a standing rule: after its sweep it follows joins (and changes) until cancelled or `until` (see `KeepOptions`). */
	keep?: KeepOptions | undefined;
}

export interface StartRestoreOptions extends Pick<StartJobOptions, 'dryRun' | 'startedBy' | 'rank' | 'allowed'> {
	/** Run instead when no journal is left (clearing a value where it is still set); without it, no journal is an error. */
	fallback?: MassAction | undefined;
	/** Added to the error when no journal is left and there is no fallback: what the user can do. */
	noJournalHint?: string | undefined;
	/** Who ran the restore and where, kept in the job's run record so that a restart resumes the restore. */
	record?: RestoreRecord | undefined;
	/** Undo the newest job that can be undone, past newer ones Discord cannot undo (see `journalToUndo`). */
	pastIrreversible?: boolean | undefined;
	/** How the member asks for {@link pastIrreversible} where they are, for the refusal that names it. */
	pastIrreversibleHint?: string | undefined;
}

/** What a restore undoes: the journal's job, or nothing when it runs the fallback. */
export interface StartedRestore {
	job: Job;
	undoes: JobJournalSummary | undefined;
}

export interface JobManagerOptions {
	config: Config;
	/**
	 * This process's workers. Jobs change only their members, and keep their journals: one file
	 * per job when the fleet holds every worker, one per worker held otherwise (see `JobJournal`).
	 */
	fleet: Fleet;
	/** The guild as it is now: roles, owner, bots (read from the boss's cache at each start). */
	guildContext: () => GuildContext;
	/**
	 * The clients whose role and member events may change {@link guildContext} (the boss's and
	 * the workers'): a running job reads the context again after each. Default: the workers'.
	 */
	guildClients?: () => readonly Client[];
	/** The bots that may list members now: the boss, and any worker whose application has the intent. */
	listers: () => ListingClient[];
	/** Rebuilds the action a journal was written by, for its restore; `undefined` if unknown. */
	actionOf: (header: JournalHeader) => MassAction | undefined;
	/** Told of every precondition checked (see `Admission`): a seam for tests and logs. */
	observePreconditions?: PreconditionObserver | undefined;
	/**
	 * Told of every job the manager runs (a job, a restore, their dry runs; not the counts of
	 * /stats) before it starts, so its events can be followed from the first: the metrics' seam.
	 */
	observeJobs?: ((job: Job) => void) | undefined;
	logger: Logger;
}
