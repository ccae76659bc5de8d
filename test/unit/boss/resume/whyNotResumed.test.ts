import { describe, expect, it } from 'vitest';
import { isDemoted } from '../../../../src/jobs/resume/isDemoted.js';
import { whoCanContinue } from '../../../../src/boss/resume/whoCanContinue.js';
import { type RequesterNow, whyNotResumed } from '../../../../src/boss/resume/whyNotResumed.js';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import type { RunRecord } from '../../../../src/jobs/journal/runRecord.js';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';

const ALICE = '300000000000000001';
const MOD = '200000000000000003';
const HELPER = '200000000000000001';

const mod: RequesterRank = { kind: 'member', userId: ALICE, position: 3, roleName: 'Mod', roleId: MOD };
const helper: RequesterRank = { kind: 'member', userId: ALICE, position: 1, roleName: 'Helper', roleId: HELPER };
const owner: RequesterRank = { kind: 'owner', userId: ALICE };
const record = (rank: RequesterRank): RunRecord => ({
	startedBy: { id: ALICE, tag: 'alice' },
	rank,
	startedAt: '2026-01-01T00:00:00.000Z',
	resumes: [],
});

/** @everyone 0 < Helper 1 < Mod 3, as the guild has them now. */
const positions = new Map([
	[HELPER, 1],
	[MOD, 3],
]);
const positionOf = (roleId: string): number | undefined => positions.get(roleId);

function why(rank: RequesterRank, now: RequesterNow, checkRequester: (rank: RequesterRank) => void = () => {}): string | undefined {
	return whyNotResumed({ record: record(rank), now, permission: 'Manage Nicknames', positionOf, checkRequester });
}

const present = (rank: RequesterRank, allowed = true): RequesterNow => ({ left: false, tag: 'alice', rank, allowed });

describe('whether a job goes on for its requester after a restart', () => {
	it('goes on for a requester ranked as high as when they started it, or higher', () => {
		expect(why(mod, present(mod))).toBeUndefined();
		expect(why(helper, present(mod))).toBeUndefined();
		expect(why(mod, present(owner))).toBeUndefined();
		expect(why(owner, present(owner))).toBeUndefined();
	});

	it('does not go on for a requester who left the server', () => {
		expect(why(mod, { left: true })).toBe('alice, who started it, is no longer a member of the server');
	});

	it('does not go on for a requester who lost the command’s permission', () => {
		expect(why(mod, present(mod, false))).toBe('alice, who started it, no longer has the Manage Nicknames permission (nor a role or user the settings allow)');
	});

	it('does not go on for a requester demoted below the role they had, nor for an owner who gave the server away', () => {
		expect(why(mod, present(helper))).toBe('alice, who started it, was demoted since (their highest role was @Mod; now it is @Helper)');
		expect(why(mod, present({ kind: 'member', userId: ALICE, position: 0, roleName: 'everyone' }))).toBe(
			'alice, who started it, was demoted since (their highest role was @Mod; now they have none)',
		);
		expect(why(owner, present(mod))).toBe('alice, who started it, no longer owns the server');
	});

	it('does not go on when the action refuses the rank read now, and says the action’s words', () => {
		const refuse = (): void => {
			throw new JobError(ErrorCodes.AboveRequester, '@Mod is at or above your highest role.');
		};
		expect(why(mod, present(mod), refuse)).toBe("it is out of alice's reach now: @Mod is at or above your highest role.");
	});

	it('lets an error that is not the action’s refusal through', () => {
		expect(() =>
			why(mod, present(mod), () => {
				throw new TypeError('a bug');
			}),
		).toThrow(TypeError);
	});
});

describe('a demotion', () => {
	it('compares with the old role where it is now, so a role added or deleted below it moves nothing', () => {
		// Mod was at 3 when they started; a role below it was deleted, so Mod is at 2 now.
		const before: RequesterRank = { ...mod, position: 3 };
		expect(isDemoted(before, { ...mod, position: 2 }, (id) => (id === MOD ? 2 : undefined))).toBe(false);
		expect(isDemoted(before, { ...helper, position: 1 }, (id) => (id === MOD ? 2 : undefined))).toBe(true);
	});

	it('compares with the old position when the old role is gone', () => {
		expect(isDemoted(mod, { ...helper, position: 2 }, () => undefined)).toBe(true);
		expect(isDemoted(mod, { ...helper, position: 3 }, () => undefined)).toBe(false);
	});
});

describe('who can continue a job that did not go on', () => {
	it('names the permission and the rank the requester had', () => {
		expect(whoCanContinue(mod, 'Manage Roles')).toBe('the server owner or a member with Manage Roles ranked at least as high as @Mod can');
		expect(whoCanContinue(owner, 'Manage Nicknames')).toBe('the server owner can (a member with Manage Nicknames reaches only the members ranked below them)');
	});
});
