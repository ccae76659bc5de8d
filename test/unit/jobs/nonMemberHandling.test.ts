import { describe, expect, it } from 'vitest';
import type { MassAction } from '../../../src/jobs/MassAction.js';
import { nonMemberHandling } from '../../../src/jobs/nonMemberHandling.js';

const GUILD = '100000000000000000';
const reaching = { nonMembers: { done: 'bans', limitReached: () => undefined } } as unknown as MassAction;
const editing = {} as MassAction;
const userIds = ['300000000000000001'];

describe('nonMemberHandling', () => {
	it('hands the ids no member had to an action that reaches them, in the job, when the filters can be judged by id', () => {
		for (const filters of [{ userIds }, { userIds, createdAfter: 1, noRoles: true, excludeRoleId: '5', onlyRoleId: GUILD, members: 'all' as const }]) {
			expect(nonMemberHandling(reaching, 'apply', filters, GUILD)).toEqual({ reached: true, memberOnly: [] });
		}
	});

	it('not to an action that edits members, nor in an undo, nor without a file of ids', () => {
		expect(nonMemberHandling(editing, 'apply', { userIds }, GUILD)).toEqual({ reached: false, memberOnly: [] });
		expect(nonMemberHandling(reaching, 'restore', { userIds }, GUILD)).toEqual({ reached: false, memberOnly: [] });
		expect(nonMemberHandling(reaching, 'apply', {}, GUILD)).toEqual({ reached: false, memberOnly: [] });
	});

	it('not when a filter asks what only a member has, naming each', () => {
		const filters = { userIds, onlyRoleId: '7', members: 'humans' as const, joinedAfter: 1, nameMatches: 'x' };
		expect(nonMemberHandling(reaching, 'apply', filters, GUILD)).toEqual({
			reached: false,
			memberOnly: ['the role', 'humans only', 'the join date', 'the name pattern'],
		});
	});
});
