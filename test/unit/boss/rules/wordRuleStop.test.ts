import { describe, expect, it } from 'vitest';
import { wordRuleNext, wordRuleStop } from '../../../../src/boss/rules/wordRuleStop.js';
import type { RequesterNow, RequesterRank } from '../../../../src/jobs/index.js';

type MemberRank = Extract<RequesterRank, { kind: 'member' }>;
const ALICE = '300000000000000001';
const helper: MemberRank = { kind: 'member', userId: ALICE, position: 2, roleName: 'Helper', roleId: '200000000000000002' };
const member = (rank: RequesterRank): RequesterNow => ({ kind: 'member', tag: 'alice', rank, allowed: true });

describe('why a standing rule stopped while it ran, in words', () => {
	it('a requester who lost the permission, or left, is said as a restart says it', () => {
		expect(wordRuleStop({ code: 'permission-lost', tag: 'alice' }, 'Manage Roles', member(helper))).toBe(
			'alice, who started it, no longer has the Manage Roles permission (nor a role or user the settings allow)',
		);
		expect(wordRuleStop({ code: 'requester-left', tag: 'alice' }, 'Manage Roles', { kind: 'left' })).toBe(
			'alice, who started it, is no longer a member of the server',
		);
	});

	it('what it changes moved out of their reach is said of the rule, with their highest role now, not to them', () => {
		const text = wordRuleStop(
			{ code: 'out-of-reach', tag: 'alice', message: '@Member, which is at or above your own rank. Nothing was changed.' },
			'Manage Roles',
			member(helper),
		);
		expect(text).toBe(
			'alice, who started it, no longer ranks above what it changes (their highest role is @Helper), and Discord lets a member change only what ranks below their own highest role',
		);
		const none = wordRuleStop(
			{ code: 'out-of-reach', tag: 'alice', message: '' },
			'Manage Roles',
			member({ kind: 'member', userId: ALICE, position: 0, roleName: 'everyone' }),
		);
		expect(none).toContain('(they hold no role)');
	});

	it('what to do: make it again, by someone who reaches as far, or /restore', () => {
		expect(wordRuleNext(helper, 'Manage Roles')).toBe(
			'Make the rule again to go on with it, or /restore to undo what it did; the server owner or a member with Manage Roles ranked at least as high as @Helper can.',
		);
		expect(wordRuleNext({ kind: 'owner', userId: ALICE }, 'Manage Roles')).toContain('the server owner can');
	});
});
