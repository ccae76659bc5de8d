import type { JobJournalSummary } from '../journal/JobJournal.js';
import type { RunRecord } from '../journal/runRecord.js';
import type { RequesterRank } from '../RequesterRank.js';

/**
 * Everything {@link decideResume} decides from, read beforehand by the I/O side: the journals and
 * run records on disk, the clock, the settings, this process, and what the guild says now of the
 * requester of a job that may go on.
 */
export interface ResumeInput {
	/** Every journal this process holds, newest first (as `GuildJournals.list` gives them). */
	readonly journals: readonly JobJournalSummary[];
	/**
	 * The run records beside them, by job id. A journal without one was started by `massnick run`
	 * (or by a massnick from before run records).
	 */
	readonly records: ReadonlyMap<string, RunRecord>;
	/** The job running now, if any: it is no restart's to resume. */
	readonly runningId?: string | undefined;
	/** The journals whose job Discord cannot undo (a kick), by job id: no restore ever starts on those. */
	readonly irreversible?: ReadonlySet<string> | undefined;
	/** Now, in milliseconds since the epoch: the time a resume is recorded at. */
	readonly now: number;
	readonly settings: ResumeSettings;
	readonly here: ResumeHere;
	/** What the guild says now of each journal a `check` decision named, by job id. */
	readonly facts?: ReadonlyMap<string, ResumeFacts> | undefined;
}

export interface ResumeSettings {
	/** `jobs.resumeOnStart`: off, an interrupted job waits for a person to run its command again. */
	readonly resumeOnStart: boolean;
}

/** This process, as far as resuming goes. */
export interface ResumeHere {
	/** How many workers it holds (none with `WORKER_IDS=none`: its jobs run in other processes). */
	readonly workers: number;
	/** Whether a boss runs here: only the boss checks a requester again and tells their channel. */
	readonly boss: boolean;
	/** Why its share of a fleet resumes nothing (`FleetScope.whyNoResume`); `undefined` when it holds every worker. */
	readonly fleetShare?: string | undefined;
}

/** What the I/O side read of one journal that a `check` decision named. */
export type ResumeFacts =
	/** This massnick cannot rebuild the action that wrote the journal (a newer massnick wrote it). */
	| { readonly action: 'unknown'; readonly cause?: unknown }
	/** The action, rebuilt against the guild now, refuses to run, in its words: its role was deleted since, say. */
	| { readonly action: 'refused'; readonly message: string }
	| {
			readonly action: 'ready';
			readonly requester: RequesterNow;
			/** Each role's position now, by id (a role deleted since is absent). */
			readonly rolePositions: ReadonlyMap<string, number>;
	  };

/** Who asked for the job (or its restore), as the guild has them now. */
export type RequesterNow =
	| { readonly kind: 'left' }
	/** Discord did not answer who they are (an outage): nothing is resumed on a guess. */
	| { readonly kind: 'unreadable'; readonly error: string }
	| {
			readonly kind: 'member';
			readonly tag: string;
			/** Their rank read now, with the rules of a new command. */
			readonly rank: RequesterRank;
			/** Whether they may run the command (its permission, or a role or user the settings allow). */
			readonly allowed: boolean;
			/** The action's own check of {@link rank} (a role it gives at or above them), in its words when it refuses them. */
			readonly outOfReach?: string | undefined;
	  };
