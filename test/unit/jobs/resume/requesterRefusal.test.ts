import { describe, expect, it } from 'vitest';
import type { RequesterRank } from '../../../../src/jobs/RequesterRank.js';
import { requesterRefusal } from '../../../../src/jobs/resume/requesterRefusal.js';
import type { RequesterNow } from '../../../../src/jobs/resume/ResumeInput.js';

const ALICE = '300000000000000001';
const MOD = '200000000000000003';
const mod: RequesterRank = { kind: 'member', userId: ALICE, position: 3, roleName: 'Mod', roleId: MOD };
const helper: RequesterRank = { kind: 'member', userId: ALICE, position: 1, roleName: 'Helper', roleId: '200000000000000001' };
const owner: RequesterRank = { kind: 'owner', userId: ALICE };
const asked = (rank: RequesterRank) => ({ startedBy: { tag: 'alice' }, rank });
const member = (rank: RequesterRank, more: Partial<Extract<RequesterNow, { kind: 'member' }>> = {}): RequesterNow => ({
	kind: 'member',
	tag: 'alice#now',
	rank,
	allowed: true,
	...more,
});
const positions = new Map([[MOD, 3]]);

/** The one decision a restart and a running rule's re-check both make of the requester now. */
describe('why a requester may no longer have their job or rule go on', () => {
	it('a requester who still holds the permission and the rank they started with may', () => {
		expect(requesterRefusal(asked(mod), member(mod), positions)).toBeUndefined();
		expect(requesterRefusal(asked(owner), member(owner), positions)).toBeUndefined();
	});

	it('they left, or Discord did not say who they are: by the tag they started it with', () => {
		expect(requesterRefusal(asked(mod), { kind: 'left' }, positions)).toEqual({ code: 'requester-left', tag: 'alice' });
		expect(requesterRefusal(asked(mod), { kind: 'unreadable', error: '503' }, positions)).toEqual({ code: 'requester-unreadable', tag: 'alice', error: '503' });
	});

	it('the permission goes first, then the rank, then their reach', () => {
		expect(requesterRefusal(asked(mod), member(helper, { allowed: false, outOfReach: 'x' }), positions)).toEqual({ code: 'permission-lost', tag: 'alice#now' });
		expect(requesterRefusal(asked(mod), member(helper, { outOfReach: 'x' }), positions)).toEqual({ code: 'demoted', tag: 'alice#now', was: mod, is: helper });
		expect(requesterRefusal(asked(owner), member(mod), positions)).toEqual({ code: 'no-longer-owner', tag: 'alice#now' });
		expect(requesterRefusal(asked(mod), member(mod, { outOfReach: '@Event is at or above your highest role.' }), positions)).toEqual({
			code: 'out-of-reach',
			tag: 'alice#now',
			message: '@Event is at or above your highest role.',
		});
	});

	it('their old highest role is taken where it stands now: roles below it deleted since move it, not them', () => {
		const moved = new Map([[MOD, 2]]);
		expect(requesterRefusal(asked(mod), member({ ...mod, position: 2 }), moved)).toBeUndefined();
	});
});
