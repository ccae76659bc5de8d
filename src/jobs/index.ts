/**
 * The engine's surface: what the boss, the command line, the actions, the doctor and the bench
 * use of `jobs/`. Files inside `jobs/` import each other directly; everything outside imports this
 * file (the architecture test holds it).
 */
export { ABOVE_REQUESTER, forRequester, type GuildContext, hasAdministrator, outOfReach } from './GuildContext.js';
export type { Job, JobMode, JobResult, KeepOptions } from './Job.js';
export { JobManager } from './JobManager.js';
export type {
	ActionWords,
	BatchApply,
	BatchResult,
	ChangedRole,
	ChangeRequest,
	ChangeTarget,
	EntryLife,
	MassAction,
	NonMemberReach,
	RestoreListing,
} from './MassAction.js';
export type { FollowedCounts } from './job/FollowedTally.js';
export type { NonMemberCounts } from './job/NonMemberTally.js';
export { type NonMemberHandling, nonMemberHandling } from './nonMemberHandling.js';
export { DONE, type Plan, type SlotValue } from './Plan.js';
export type { ProgressSnapshot, WorkerSnapshot } from './Progress.js';
export { OPERATOR_ID, type Requester } from './Requester.js';
export { OPERATOR, type RequesterRank } from './RequesterRank.js';
export {
	CHANGES_PER_SECOND_PER_WORKER,
	changesPerSecond,
	estimateMemberEdit,
	estimateRestore,
	estimateShareMs,
	type EstimatedGroup,
	exactly,
	type GuildCounts,
	holdersOf,
	type JobEstimate,
	membersInScope,
	onlyRole,
	others,
	type Range,
} from './estimateJob.js';
export type { MemberFilterSpec, MemberKind, TimeFilter } from './filters/MemberFilterSpec.js';
export { TIME_FILTERS } from './filters/MemberFilterSpec.js';
export { compileMemberFilter } from './filters/compileMemberFilter.js';
export { compileNamePattern, MAX_NAME_PATTERN_LENGTH } from './filters/compileNamePattern.js';
export { describeFilters, describeListedIds, listed } from './filters/describeFilters.js';
export { listedIdsLine } from './listedIdsLine.js';
export { decodeIdFile } from './filters/decodeIdFile.js';
export { checkIdFileSize, MAX_ID_FILE_BYTES } from './filters/idFileSize.js';
export { type IdList, MAX_LISTED_IDS, parseIdList } from './filters/parseIdList.js';
export { isDuration, parseDateOrDuration } from './filters/parseDateOrDuration.js';
export { fleetGuildContext } from './fleetGuildContext.js';
export { type FleetJob, readFleetJobs } from './fleetJobs.js';
export type { JobJournalSummary } from './journal/JobJournal.js';
export { Journal, type JournalHeader, type JournalState, type JournalSummary, loadIndex } from './journal/Journal.js';
export { openRestoreLookup, type RestoreLookup } from './journal/runs/openRestoreLookup.js';
export { guildDir } from './journal/files.js';
export { deleteRestoredJournals, journalName, journalsOnDisk } from './journal/journalsOnDisk.js';
export { originalLine } from './journal/records.js';
export type { OldBossNotes, RestoreRecord, RunRecord } from './journal/runRecord.js';
export type { ListingClient } from './listMembers.js';
export { type MemberFilters, planMember, planRestore } from './planner.js';
export { actionToUndo, noJournalError, scanJournal } from './restoreQueries.js';
export { isIrreversible, journalToUndo, type UndoTarget } from './journalToUndo.js';
export { decideResume } from './resume/decideResume.js';
export { isDemoted } from './resume/isDemoted.js';
export { type AskedBy, requesterRefusal } from './resume/requesterRefusal.js';
export type {
	CheckFirst,
	LeaveIt,
	LeaveReason,
	NextStep,
	Refusal,
	RefuseIt,
	ResumeDecision,
	ResumeIt,
	ResumeSubject,
	SkipIt,
	SkipReason,
} from './resume/ResumeDecision.js';
export type { RequesterNow, ResumeFacts, ResumeHere, ResumeInput, ResumeSettings } from './resume/ResumeInput.js';
export { type ResumeDisk, readResumeInput } from './resume/readResumeInput.js';
export { RESUME_LIMIT, RESUME_WINDOW_MS, resumedTooOften } from './resume/resumedTooOften.js';
export type { JobManagerOptions, StartedRestore, StartJobOptions, StartRestoreOptions } from './run/StartOptions.js';
export { type ListingBounds, listingBounds } from './filters/listingBounds.js';
export { keepOf, keepRecord } from './rules/keepRecord.js';
export { fieldOf, StandingRules } from './rules/StandingRules.js';
export { MAX_RULES } from './run/RunSlot.js';
