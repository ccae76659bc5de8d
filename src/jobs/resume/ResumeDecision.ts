import type { JobJournalSummary } from '../journal/JobJournal.js';
import type { RestoreRecord, RunRecord } from '../journal/runRecord.js';
import type { Requester } from '../Requester.js';
import type { RequesterRank } from '../RequesterRank.js';

/** The job a journal holds, with who started it (its run record). */
export interface JobSubject {
	readonly what: 'job';
	readonly journal: JobJournalSummary;
	readonly asked: RunRecord;
}

/** The /restore of a journal's job that a restart cut short, with who ran it. */
export interface RestoreSubject {
	readonly what: 'restore';
	readonly journal: JobJournalSummary;
	readonly asked: RestoreRecord;
}

export type ResumeSubject = JobSubject | RestoreSubject;

interface Resumed {
	readonly kind: 'resume';
	/** The requester's id as recorded, with their tag now. */
	readonly startedBy: Requester;
	/** Their rank read now: it bounds the resumed job (the record keeps the one they started with). */
	readonly rank: RequesterRank;
	/** ISO 8601. */
	readonly resumedAt: string;
}

/** Go on with it, for who asked for it, as they are now. `resumed`: the record to keep, this resume added. */
export type ResumeIt = (JobSubject & Resumed & { readonly resumed: RunRecord }) | (RestoreSubject & Resumed & { readonly resumed: RestoreRecord });

/** It may go on: read what the guild says now of it (see `ResumeFacts`), then decide again. */
export type CheckFirst = ResumeSubject & { readonly kind: 'check' };

/** It may not go on until a person acts: tell its channel (and /status) why and what to do. */
export type RefuseIt = ResumeSubject & { readonly kind: 'refuse'; readonly why: Refusal; readonly whatToDo: NextStep };

/** Not resumed by this start, for a reason nobody need be told of in Discord: the log says why. */
export interface LeaveIt {
	readonly kind: 'leave';
	/** The journal it is about; none when this process resumes nothing at all. */
	readonly journal?: JobJournalSummary | undefined;
	readonly what?: ResumeSubject['what'] | undefined;
	readonly why: LeaveReason;
}

/** A journal a restart has nothing to do with now. */
export interface SkipIt {
	readonly kind: 'skip';
	readonly journal: JobJournalSummary;
	readonly why: SkipReason;
}

export type ResumeDecision = ResumeIt | CheckFirst | RefuseIt | LeaveIt | SkipIt;

/** Why a job may not go on, as data: the boss words it. `tag`: the requester's. */
export type Refusal =
	| { readonly code: 'resumed-too-often'; readonly limit: number; readonly windowMs: number }
	/** The action refused to run against the guild now (see `ResumeFacts`). */
	| { readonly code: 'action-refused'; readonly message: string }
	| { readonly code: 'requester-unreadable'; readonly tag: string; readonly error: string }
	| { readonly code: 'requester-left'; readonly tag: string }
	| { readonly code: 'permission-lost'; readonly tag: string }
	/** The owner (or the operator) who is not the owner any more. */
	| { readonly code: 'no-longer-owner'; readonly tag: string }
	| {
			readonly code: 'demoted';
			readonly tag: string;
			/** Their rank when they started it. */
			readonly was: Extract<RequesterRank, { kind: 'member' }>;
			/** Their rank now. */
			readonly is: RequesterRank;
	  }
	| { readonly code: 'out-of-reach'; readonly tag: string; readonly message: string };

/**
 * What a person does about a refusal: run the command again (someone who reaches as far as the
 * requester did), or first fix what kept killing the process.
 */
export type NextStep = 'run-again' | 'fix-first';

export type LeaveReason =
	| { readonly code: 'no-workers-here' }
	| { readonly code: 'resume-off' }
	| { readonly code: 'no-boss' }
	| { readonly code: 'fleet-share'; readonly text: string }
	| { readonly code: 'started-by-run' }
	| { readonly code: 'no-record' }
	| { readonly code: 'restore-started'; readonly at: string }
	| { readonly code: 'newer-job'; readonly newer: JobJournalSummary }
	| { readonly code: 'unknown-action'; readonly cause?: unknown };

export type SkipReason =
	/** Cancelled by a person: no restart resumes it; its originals stay for /restore. */
	| { readonly code: 'cancelled' }
	/** Unfinished too, but only the newest job or restore a restart cut short is resumed. */
	| { readonly code: 'behind'; readonly first: JobJournalSummary };
