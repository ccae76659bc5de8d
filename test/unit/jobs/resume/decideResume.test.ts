import { describe, expect, it } from 'vitest';
import type { JobJournalSummary } from '../../../../src/jobs/journal/JobJournal.js';
import type { JournalState } from '../../../../src/jobs/journal/Journal.js';
import type { RestoreRecord, RunRecord } from '../../../../src/jobs/journal/runRecord.js';
import { OPERATOR_ID } from '../../../../src/jobs/Requester.js';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';
import { decideResume } from '../../../../src/jobs/resume/decideResume.js';
import type { RequesterNow, ResumeFacts, ResumeInput } from '../../../../src/jobs/resume/ResumeInput.js';

const GUILD = '175928847299117063';
const ALICE = '300000000000000001';
const BOB = '300000000000000002';
const MOD = '200000000000000003';
const HELPER = '200000000000000001';
const EVENT = '200000000000000009';
/** 2026-01-01 04:00 UTC: an hour after the jobs below started. */
const NOW = Date.UTC(2026, 0, 1, 4, 0);
const at = (minutes: number): string => new Date(Date.UTC(2026, 0, 1, 3, 0) + minutes * 60_000).toISOString();

const mod: RequesterRank = { kind: 'member', userId: ALICE, position: 3, roleName: 'Mod', roleId: MOD };
const helper: RequesterRank = { kind: 'member', userId: ALICE, position: 1, roleName: 'Helper', roleId: HELPER };
const owner: RequesterRank = { kind: 'owner', userId: ALICE };

function journal(
	jobId: string,
	state: JournalState,
	options: { action?: string; startedBy?: string; startedAt?: string; endedAt?: string } = {},
): JobJournalSummary {
	const header = {
		type: 'job',
		version: 3,
		jobId,
		guildId: GUILD,
		action: options.action ?? 'nickname',
		target: options.action === 'role-add' ? EVENT : 'x {username}',
		title: `Job ${jobId}`,
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: options.startedBy ?? ALICE, tag: options.startedBy === OPERATOR_ID ? 'cli:ops' : 'alice' },
		startedAt: options.startedAt ?? at(0),
		workers: 4,
	} as const;
	const endedAt = options.endedAt ?? (state === 'running' ? undefined : at(30));
	const summary = { path: `/data/${GUILD}/${jobId}.jsonl`, header, state, endedAt };
	return { ...summary, files: [summary] };
}

function record(rank: RequesterRank = mod, change: Partial<RunRecord> = {}): RunRecord {
	return { startedBy: { id: ALICE, tag: 'alice' }, rank, startedAt: at(0), resumes: [], ...change };
}

const restoreBy: RestoreRecord = { startedBy: { id: BOB, tag: 'bob' }, rank: owner, startedAt: at(40), resumes: [] };

const member = (rank: RequesterRank, more: Partial<Extract<RequesterNow, { kind: 'member' }>> = {}): RequesterNow => ({
	kind: 'member',
	tag: 'alice#now',
	rank,
	allowed: true,
	...more,
});
/** @everyone 0 < Helper 1 < Mod 3, as the guild has them now. */
const positions = new Map([
	[HELPER, 1],
	[MOD, 3],
]);
const ready = (requester: RequesterNow): ResumeFacts => ({ action: 'ready', requester, rolePositions: positions });

/** A start with a boss, every worker, `jobs.resumeOnStart` on, and nothing read of the guild yet. */
function input(journals: JobJournalSummary[], records: Record<string, RunRecord> = {}, more: Partial<ResumeInput> = {}): ResumeInput {
	return {
		journals,
		records: new Map(Object.entries(records)),
		now: NOW,
		settings: { resumeOnStart: true },
		here: { workers: 4, boss: true },
		...more,
	};
}

/** The same, with what the guild says now of `jobId`. */
const withFacts = (jobId: string, facts: ResumeFacts): Partial<ResumeInput> => ({ facts: new Map([[jobId, facts]]) });

const a = journal('job-a', 'running');
const stopped = journal('job-a', 'stopped');

interface Row {
	readonly name: string;
	readonly input: ResumeInput;
	readonly decisions: ReadonlyArray<Record<string, unknown>>;
}

const rows: Row[] = [
	{
		name: 'an interrupted job is resumed for its requester as they are now, the resume recorded',
		input: input([a], { 'job-a': record() }, withFacts('job-a', ready(member(mod)))),
		decisions: [
			{
				kind: 'resume',
				what: 'job',
				journal: a,
				startedBy: { id: ALICE, tag: 'alice#now' },
				rank: mod,
				resumedAt: new Date(NOW).toISOString(),
				resumed: { ...record(), startedBy: { id: ALICE, tag: 'alice#now' }, resumes: [new Date(NOW).toISOString()] },
			},
		],
	},
	{
		name: 'a job stopped by a shutdown is resumed',
		input: input([stopped], { 'job-a': record() }, withFacts('job-a', ready(member(mod)))),
		decisions: [{ kind: 'resume', what: 'job', journal: stopped }],
	},
	{
		name: 'an interrupted job is checked against the guild first: nothing read yet, the I/O is asked to read it',
		input: input([a], { 'job-a': record() }),
		decisions: [{ kind: 'check', what: 'job', journal: a, asked: record() }],
	},
	{
		name: 'a job cancelled with /cancel is not resumed',
		input: input([journal('job-a', 'cancelled')], { 'job-a': record() }),
		decisions: [{ kind: 'skip', why: { code: 'cancelled' } }],
	},
	{
		name: 'a finished job asks for nothing',
		input: input([journal('job-a', 'finished')], { 'job-a': record() }),
		decisions: [],
	},
	{
		name: 'a job that died within ten minutes of each of its last three resumes is refused: fix the cause first',
		input: input([a], { 'job-a': record(mod, { resumes: [at(50), at(53), at(57)] }) }, withFacts('job-a', ready(member(mod)))),
		decisions: [{ kind: 'refuse', why: { code: 'resumed-too-often', limit: 3, windowMs: 600_000 }, whatToDo: 'fix-first' }],
	},
	{
		name: 'three resumes spread over more than ten minutes do not stop the fourth',
		input: input([a], { 'job-a': record(mod, { resumes: [at(0), at(20), at(57)] }) }, withFacts('job-a', ready(member(mod)))),
		decisions: [{ kind: 'resume', resumed: { resumes: [at(0), at(20), at(57), new Date(NOW).toISOString()] } }],
	},
	{
		name: 'a requester who left the server is refused',
		input: input([a], { 'job-a': record() }, withFacts('job-a', ready({ kind: 'left' }))),
		decisions: [{ kind: 'refuse', why: { code: 'requester-left', tag: 'alice' }, whatToDo: 'run-again' }],
	},
	{
		name: 'a requester Discord could not tell about is refused, not guessed',
		input: input([a], { 'job-a': record() }, withFacts('job-a', ready({ kind: 'unreadable', error: 'Service Unavailable' }))),
		decisions: [{ kind: 'refuse', why: { code: 'requester-unreadable', tag: 'alice', error: 'Service Unavailable' } }],
	},
	{
		name: 'a requester demoted below the role they had is refused',
		input: input([a], { 'job-a': record(mod) }, withFacts('job-a', ready(member(helper)))),
		decisions: [{ kind: 'refuse', why: { code: 'demoted', tag: 'alice#now', was: mod, is: helper }, whatToDo: 'run-again' }],
	},
	{
		name: 'a requester promoted since goes on',
		input: input([a], { 'job-a': record(helper) }, withFacts('job-a', ready(member(mod)))),
		decisions: [{ kind: 'resume', rank: mod }],
	},
	{
		name: 'a requester whose old role moved down with a role deleted below it is not demoted',
		input: input(
			[a],
			{ 'job-a': record(mod) },
			withFacts('job-a', { action: 'ready', requester: member({ ...mod, position: 2 }), rolePositions: new Map([[MOD, 2]]) }),
		),
		decisions: [{ kind: 'resume' }],
	},
	{
		name: 'an owner who gave the server away is refused',
		input: input([a], { 'job-a': record(owner) }, withFacts('job-a', ready(member(mod)))),
		decisions: [{ kind: 'refuse', why: { code: 'no-longer-owner', tag: 'alice#now' } }],
	},
	{
		name: "a requester who lost the command's permission is refused",
		input: input([a], { 'job-a': record() }, withFacts('job-a', ready(member(mod, { allowed: false })))),
		decisions: [{ kind: 'refuse', why: { code: 'permission-lost', tag: 'alice#now' } }],
	},
	{
		name: 'a requester the action now puts out of reach (its role raised above them) is refused, in its words',
		input: input([a], { 'job-a': record() }, withFacts('job-a', ready(member(mod, { outOfReach: '@Event is at or above your highest role.' })))),
		decisions: [{ kind: 'refuse', why: { code: 'out-of-reach', tag: 'alice#now', message: '@Event is at or above your highest role.' } }],
	},
	{
		name: "a /massrole whose role was deleted is refused with the action's words",
		input: input(
			[journal('job-a', 'running', { action: 'role-add' })],
			{ 'job-a': record() },
			withFacts('job-a', { action: 'refused', message: 'its role (200000000000000009) was deleted since it started' }),
		),
		decisions: [{ kind: 'refuse', what: 'job', why: { code: 'action-refused', message: 'its role (200000000000000009) was deleted since it started' } }],
	},
	{
		name: 'a job of an action this massnick does not know is left alone',
		input: input([journal('job-a', 'running', { action: 'from-the-future' })], { 'job-a': record() }, withFacts('job-a', { action: 'unknown' })),
		decisions: [{ kind: 'leave', what: 'job', why: { code: 'unknown-action' } }],
	},
	{
		name: 'a /restore cut short half way is resumed for whoever ran it, before the job it undoes',
		input: input([a], { 'job-a': record(mod, { restoreStartedAt: at(40), restore: restoreBy }) }, withFacts('job-a', ready(member(owner, { tag: 'bob#now' })))),
		decisions: [
			{
				kind: 'resume',
				what: 'restore',
				journal: a,
				startedBy: { id: BOB, tag: 'bob#now' },
				rank: owner,
				resumed: { ...restoreBy, startedBy: { id: BOB, tag: 'bob#now' }, resumes: [new Date(NOW).toISOString()] },
			},
		],
	},
	{
		name: 'a /restore cut short is resumed past a newer kick, which no restore undoes',
		input: input(
			[journal('job-k', 'finished', { action: 'kick', startedAt: at(50) }), a],
			{ 'job-a': record(mod, { restoreStartedAt: at(40), restore: restoreBy }) },
			{ ...withFacts('job-a', ready(member(owner, { tag: 'bob#now' }))), irreversible: new Set(['job-k']) },
		),
		decisions: [
			{
				kind: 'resume',
				what: 'restore',
				journal: a,
				startedBy: { id: BOB, tag: 'bob#now' },
				rank: owner,
				resumed: { ...restoreBy, startedBy: { id: BOB, tag: 'bob#now' }, resumes: [new Date(NOW).toISOString()] },
			},
		],
	},
	{
		name: 'a /restore cut short of a finished job is checked as its own runner, not the job’s',
		input: input([journal('job-a', 'finished')], { 'job-a': record(mod, { restoreStartedAt: at(40), restore: restoreBy }) }),
		decisions: [{ kind: 'check', what: 'restore', asked: restoreBy }],
	},
	{
		name: 'a /restore that ended (finished or cancelled) is not resumed, nor the job it undid',
		input: input([journal('job-a', 'finished')], { 'job-a': record(mod, { restoreStartedAt: at(40), restore: restoreBy, restoreEndedAt: at(45) }) }),
		decisions: [],
	},
	{
		name: 'an interrupted job whose /restore started since (and ended) is left to /restore',
		input: input([a], { 'job-a': record(mod, { restoreStartedAt: at(40), restore: restoreBy, restoreEndedAt: at(45) }) }),
		decisions: [{ kind: 'leave', what: 'job', why: { code: 'restore-started', at: at(40) } }],
	},
	{
		name: 'with jobs.resumeOnStart off, the interrupted job is left for a person to run again',
		input: input([a], { 'job-a': record() }, { settings: { resumeOnStart: false } }),
		decisions: [{ kind: 'leave', what: 'job', journal: a, why: { code: 'resume-off' } }],
	},
	{
		name: 'with jobs.resumeOnStart off, a /restore cut short waits too, said as a restore',
		input: input([a], { 'job-a': record(mod, { restore: restoreBy, restoreStartedAt: at(40) }) }, { settings: { resumeOnStart: false } }),
		decisions: [{ kind: 'leave', what: 'restore', why: { code: 'resume-off' } }],
	},
	{
		name: 'a job massnick run started is the scheduler’s to rerun',
		input: input([journal('job-a', 'running', { startedBy: OPERATOR_ID })]),
		decisions: [{ kind: 'leave', why: { code: 'started-by-run' } }],
	},
	{
		name: 'a job with no run record (an older massnick started it) is left alone',
		input: input([a]),
		decisions: [{ kind: 'leave', why: { code: 'no-record' } }],
	},
	{
		name: 'an interrupted job another job ended after is left: the newer one took its place',
		input: input([journal('job-b', 'finished', { startedAt: at(20), endedAt: at(50) }), a], { 'job-a': record() }),
		decisions: [{ kind: 'leave', journal: a, why: { code: 'newer-job', newer: { header: { jobId: 'job-b' } } } }],
	},
	{
		name: 'only the newest interrupted job goes on; an older one is skipped behind it',
		input: input([journal('job-b', 'stopped', { startedAt: at(20), endedAt: undefined }), a], {
			'job-b': record(mod, { startedAt: at(20) }),
			'job-a': record(),
		}),
		decisions: [
			{ kind: 'check', journal: { header: { jobId: 'job-b' } } },
			{ kind: 'skip', journal: a, why: { code: 'behind', first: { header: { jobId: 'job-b' } } } },
		],
	},
	{
		name: 'a standing rule stopped with the job it ran beside is no newer job: both go on, the job first, in the sweep’s place',
		input: input([journal('job-b', 'stopped', { startedAt: at(20), endedAt: at(45) }), journal('rule-r', 'stopped', { action: 'role-add', endedAt: at(45) })], {
			'job-b': record(mod, { startedAt: at(20) }),
			'rule-r': record(mod, { keep: {} }),
		}),
		decisions: [
			{ kind: 'check', journal: { header: { jobId: 'job-b' } } },
			{ kind: 'check', journal: { header: { jobId: 'rule-r' } } },
		],
	},
	{
		name: 'a sweep goes first even when a rule’s journal is the newer',
		input: input(
			[
				journal('rule-r', 'stopped', { action: 'role-add', startedAt: at(25), endedAt: at(45) }),
				journal('job-b', 'stopped', { startedAt: at(20), endedAt: at(45) }),
			],
			{
				'job-b': record(mod, { startedAt: at(20) }),
				'rule-r': record(mod, { startedAt: at(25), keep: {} }),
			},
		),
		decisions: [
			{ kind: 'check', journal: { header: { jobId: 'job-b' } } },
			{ kind: 'check', journal: { header: { jobId: 'rule-r' } } },
		],
	},
	{
		name: 'the job running now is nobody’s to resume',
		input: input([a], { 'job-a': record() }, { runningId: 'job-a' }),
		decisions: [],
	},
	{
		name: 'without a boss nothing is resumed: the scheduler reruns the job',
		input: input([a], { 'job-a': record() }, { here: { workers: 4, boss: false } }),
		decisions: [{ kind: 'leave', journal: a, why: { code: 'no-boss' } }],
	},
	{
		name: 'a process holding some workers of a fleet resumes nothing, saying why',
		input: input([a], { 'job-a': record() }, { here: { workers: 2, boss: true, fleetShare: 'holds only some of the workers' } }),
		decisions: [{ kind: 'leave', why: { code: 'fleet-share', text: 'holds only some of the workers' } }],
	},
	{
		name: 'a process holding no worker resumes nothing, whatever is on disk',
		input: input([], {}, { here: { workers: 0, boss: true } }),
		decisions: [{ kind: 'leave', why: { code: 'no-workers-here' } }],
	},
];

describe('what a start does with the jobs a restart interrupted', () => {
	it.each(rows)('$name', ({ input: given, decisions }) => {
		expect(decideResume(given)).toMatchObject(decisions);
	});
});
