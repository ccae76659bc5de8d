import type { JobJournalSummary } from '../journal/JobJournal.js';
import { OPERATOR_ID } from '../Requester.js';
import { newestOpen } from '../restoreQueries.js';
import { requesterRefusal } from './requesterRefusal.js';
import type { LeaveReason, ResumeDecision, ResumeSubject, SkipIt } from './ResumeDecision.js';
import type { RequesterNow, ResumeInput } from './ResumeInput.js';
import { RESUME_LIMIT, RESUME_WINDOW_MS, resumedTooOften } from './resumedTooOften.js';

/**
 * What a start does with the jobs a restart interrupted: one decision per journal that is not
 * settled (finished or restored with no restore under way get none), the one to resume first.
 * Pure: the I/O side reads the disk, the settings and the guild, and acts on the decisions.
 *
 * Only the newest job or restore a restart cut short may go on: a /restore cut short comes first
 * (it started after the job it undoes, which it keeps from resuming), else the newest journal
 * `running` (its process died) or `stopped` (shut down under it). It goes on only where
 * `jobs.resumeOnStart` is on, a boss runs and this process holds every worker, for a job a slash
 * command started (`massnick run`'s are a scheduler's to rerun) that no /restore and no newer job
 * has taken the place of. Then, once the guild has been read (`check`), it is checked as a new
 * command would be: its action still runs (a role deleted since does not), it did not die within
 * ten minutes of each of its last three resumes (see {@link resumedTooOften}), and its requester is
 * still a member, may still run the command, ranks no lower than when they started it and reaches
 * what it changes. Standing rules (a record with `keep`) interrupted too go on after it, each
 * decided the same way, one sweep at a time.
 */
export function decideResume(input: ResumeInput): ResumeDecision[] {
	if (input.here.workers === 0) return [{ kind: 'leave', why: { code: 'no-workers-here' } }];
	const first = firstToResume(input);
	// Standing rules go on beside it, each checked as the first is: a rule is no newer job's place.
	const rules = input.journals.filter(
		(journal) =>
			journal !== first?.journal && journal.header.jobId !== input.runningId && interrupted(journal) && input.records.get(journal.header.jobId)?.keep,
	);
	const others = input.journals.flatMap((journal): SkipIt[] => {
		if (journal === first?.journal || journal.header.jobId === input.runningId || rules.includes(journal)) return [];
		if (journal.state === 'cancelled') return [{ kind: 'skip', journal, why: { code: 'cancelled' } }];
		if (first && (journal.state === 'running' || journal.state === 'stopped'))
			return [{ kind: 'skip', journal, why: { code: 'behind', first: first.journal } }];
		return [];
	});
	return [...(first ? [decideFirst(first, input)] : []), ...rules.map((journal) => decideFirst({ what: 'job', journal }, input)), ...others];
}

function interrupted(journal: JobJournalSummary): boolean {
	return journal.state === 'running' || journal.state === 'stopped';
}

type Found = { readonly what: 'job'; readonly journal: JobJournalSummary } | ResumeSubject;

/**
 * The restore a restart cut short (of the newest journal not restored whose job can be undone: no
 * restore starts on a kick's), else the newest unfinished job.
 */
function firstToResume({ journals, records, runningId, irreversible }: ResumeInput): Found | undefined {
	const open = newestOpen(journals.filter((journal) => !irreversible?.has(journal.header.jobId)));
	const record = open && open.header.jobId !== runningId ? records.get(open.header.jobId) : undefined;
	if (open && record?.restore && record.restoreEndedAt === undefined) return { what: 'restore', journal: open, asked: record.restore };
	const cut = journals.filter((journal) => (journal.state === 'running' || journal.state === 'stopped') && journal.header.jobId !== runningId);
	// A sweep before the rules, which run beside it: a rule is never the place of a sweep.
	const interrupted = cut.find((journal) => !records.get(journal.header.jobId)?.keep) ?? cut[0];
	return interrupted && { what: 'job', journal: interrupted };
}

function decideFirst(found: Found, input: ResumeInput): ResumeDecision {
	const { journal, what } = found;
	const leave = (why: LeaveReason): ResumeDecision => ({ kind: 'leave', journal, what, why });
	if (!input.settings.resumeOnStart) return leave({ code: 'resume-off' });
	if (!input.here.boss) return leave({ code: 'no-boss' });
	if (input.here.fleetShare !== undefined) return leave({ code: 'fleet-share', text: input.here.fleetShare });
	if ('asked' in found) return decideAsked(found, input);
	const { header } = journal;
	const record = input.records.get(header.jobId);
	if (!record) return leave({ code: header.startedBy.id === OPERATOR_ID ? 'started-by-run' : 'no-record' });
	if (record.restoreStartedAt !== undefined) return leave({ code: 'restore-started', at: record.restoreStartedAt });
	// A job that ended after this one last started ran in its place: going back to this one by
	// itself, perhaps days later, would surprise everyone.
	// A standing rule is no job's place: it ran beside them.
	const lastStart = record.resumes.at(-1) ?? record.startedAt;
	const newer = input.journals.find(
		(other) => other.header.jobId !== header.jobId && other.endedAt !== undefined && other.endedAt > lastStart && !input.records.get(other.header.jobId)?.keep,
	);
	if (newer && !record.keep) return leave({ code: 'newer-job', newer });
	return decideAsked({ what: 'job', journal, asked: record }, input);
}

/** A job or restore that may go on, once the guild says its requester still may. */
function decideAsked(subject: ResumeSubject, input: ResumeInput): ResumeDecision {
	const facts = input.facts?.get(subject.journal.header.jobId);
	if (!facts) return { ...subject, kind: 'check' };
	if (facts.action === 'unknown') return { kind: 'leave', journal: subject.journal, what: subject.what, why: { code: 'unknown-action', cause: facts.cause } };
	if (facts.action === 'refused') return { ...subject, kind: 'refuse', why: { code: 'action-refused', message: facts.message }, whatToDo: 'run-again' };
	if (resumedTooOften(subject.asked.resumes)) {
		return { ...subject, kind: 'refuse', why: { code: 'resumed-too-often', limit: RESUME_LIMIT, windowMs: RESUME_WINDOW_MS }, whatToDo: 'fix-first' };
	}
	const why = requesterRefusal(subject.asked, facts.requester, facts.rolePositions);
	if (why) return { ...subject, kind: 'refuse', why, whatToDo: 'run-again' };
	// Only a member is let through: one who left or could not be read was refused above.
	const requester = facts.requester as Member;
	const resumedAt = new Date(input.now).toISOString();
	const startedBy = { id: subject.asked.startedBy.id, tag: requester.tag };
	const resumes = [...subject.asked.resumes, resumedAt];
	const resumed = { kind: 'resume', startedBy, rank: requester.rank, resumedAt } as const;
	return subject.what === 'job'
		? { ...subject, ...resumed, resumed: { ...subject.asked, startedBy, resumes } }
		: { ...subject, ...resumed, resumed: { ...subject.asked, startedBy, resumes } };
}

type Member = Extract<RequesterNow, { kind: 'member' }>;
