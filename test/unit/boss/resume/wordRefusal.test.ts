import { describe, expect, it } from 'vitest';
import { whoCanContinue } from '../../../../src/boss/resume/whoCanContinue.js';
import { wordNextStep, wordRefusal } from '../../../../src/boss/resume/wordRefusal.js';
import type { RunRecord } from '../../../../src/jobs/journal/runRecord.js';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';
import type { Refusal } from '../../../../src/jobs/resume/ResumeDecision.js';

type MemberRank = Extract<RequesterRank, { kind: 'member' }>;
const ALICE = '300000000000000001';
const mod: MemberRank = { kind: 'member', userId: ALICE, position: 3, roleName: 'Mod', roleId: '200000000000000003' };
const helper: MemberRank = { kind: 'member', userId: ALICE, position: 1, roleName: 'Helper', roleId: '200000000000000001' };
const owner: RequesterRank = { kind: 'owner', userId: ALICE };
const asked = (rank: RequesterRank): RunRecord => ({ startedBy: { id: ALICE, tag: 'alice' }, rank, startedAt: '2026-01-01T00:00:00.000Z', resumes: [] });

const job = (why: Refusal): string => wordRefusal({ why, what: 'job' }, 'Manage Nicknames');

describe('why a job did not go on for its requester after a restart, in words', () => {
	it('a requester who left the server', () => {
		expect(job({ code: 'requester-left', tag: 'alice' })).toBe('alice, who started it, is no longer a member of the server');
		expect(wordRefusal({ why: { code: 'requester-left', tag: 'bob' }, what: 'restore' }, 'Manage Nicknames')).toBe(
			'bob, who ran it, is no longer a member of the server',
		);
	});

	it('a requester who lost the command’s permission', () => {
		expect(job({ code: 'permission-lost', tag: 'alice' })).toBe(
			'alice, who started it, no longer has the Manage Nicknames permission (nor a role or user the settings allow)',
		);
	});

	it('a requester demoted below the role they had, and an owner who gave the server away', () => {
		expect(job({ code: 'demoted', tag: 'alice', was: mod, is: helper })).toBe(
			'alice, who started it, was demoted since (their highest role was @Mod; now it is @Helper)',
		);
		expect(job({ code: 'demoted', tag: 'alice', was: mod, is: { kind: 'member', userId: ALICE, position: 0, roleName: 'everyone' } })).toBe(
			'alice, who started it, was demoted since (their highest role was @Mod; now they have none)',
		);
		expect(job({ code: 'no-longer-owner', tag: 'alice' })).toBe('alice, who started it, no longer owns the server');
	});

	it('the action refusing the rank read now, or itself, in its own words', () => {
		expect(job({ code: 'out-of-reach', tag: 'alice', message: '@Mod is at or above your highest role.' })).toBe(
			"it is out of alice's reach now: @Mod is at or above your highest role.",
		);
		expect(job({ code: 'action-refused', message: 'Its role (1) was deleted since it started' })).toBe('its role (1) was deleted since it started');
	});

	it('a crash loop, and a requester Discord could not tell about', () => {
		expect(job({ code: 'resumed-too-often', limit: 3, windowMs: 600_000 })).toBe(
			'it was resumed 3 times in 10 minutes and each time it stopped short of its end (the process died, or the job failed), so it is not resumed again',
		);
		expect(job({ code: 'requester-unreadable', tag: 'alice', error: 'Service Unavailable' })).toBe(
			'alice, who started it, could not be read from the server (Service Unavailable)',
		);
	});
});

describe('what to do about it', () => {
	it('run the command again, by someone who reaches as far, or fix a crash loop first', () => {
		expect(wordNextStep({ what: 'job', asked: asked(mod), whatToDo: 'run-again' }, 'Manage Nicknames')).toBe(
			'Run the same command again to continue, or /restore to undo it; the server owner or a member with Manage Nicknames ranked at least as high as @Mod can.',
		);
		expect(wordNextStep({ what: 'job', asked: asked(mod), whatToDo: 'fix-first' }, 'Manage Nicknames')).toBe(
			'Fix the cause in the log, then run the same command to continue, or /cancel.',
		);
		expect(wordNextStep({ what: 'restore', asked: asked(owner), whatToDo: 'run-again' }, 'Manage Nicknames')).toBe(
			'Run /restore again to finish it; the server owner can (a member with Manage Nicknames reaches only the members ranked below them).',
		);
		expect(wordNextStep({ what: 'restore', asked: asked(owner), whatToDo: 'fix-first' }, 'Manage Nicknames')).toBe(
			'Fix the cause in the log, then run /restore again to finish it.',
		);
	});
});

describe('who can continue a job that did not go on', () => {
	it('names the permission and the rank the requester had', () => {
		expect(whoCanContinue(mod, 'Manage Roles')).toBe('the server owner or a member with Manage Roles ranked at least as high as @Mod can');
		expect(whoCanContinue(owner, 'Manage Nicknames')).toBe('the server owner can (a member with Manage Nicknames reaches only the members ranked below them)');
	});
});
