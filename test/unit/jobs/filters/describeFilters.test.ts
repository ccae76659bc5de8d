import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { describeFilters, describeListedIds } from '../../../../src/jobs/filters/describeFilters.js';

const roleName = (id: string): string => `@role${id}`;

describe('describeFilters', () => {
	it('says every member with no filter, and names the role filters', () => {
		expect(describeFilters({}, roleName)).toBe('every member');
		expect(describeFilters({ onlyRoleId: '1', excludeRoleId: '2' }, roleName)).toBe('members with @role1 except those with @role2');
	});

	it('says each finer filter in words, with times in UTC', () => {
		const text = describeFilters(
			{ members: 'humans', noRoles: true, joinedAfter: Date.UTC(2024, 0, 31), createdBefore: Date.UTC(2020, 5, 1, 18), nameMatches: '/^bot/i' },
			roleName,
		);
		expect(text).toBe(
			'every human with no role who joined at or after 2024-01-31 00:00 UTC whose account was created before 2020-06-01 18:00 UTC whose name matches /^bot/i',
		);
		expect(describeFilters({ members: 'bots', onlyRoleId: '1', nameMatches: 'mod' }, roleName)).toBe('bots with @role1 whose name matches “mod”');
	});

	it("says a rule's durations as back from now, not as the date they read when it started", () => {
		const filters = {
			createdAfter: 1,
			joinedAfter: 1,
			joinedBefore: 9,
			createdBefore: 9,
			ago: { createdAfter: '1d', joinedAfter: '12h', joinedBefore: '1w', createdBefore: '2y' },
		};
		expect(describeFilters(filters, roleName)).toBe(
			'every member who joined in the last 12 hours who joined more than a week ago whose account was created in the last day whose account is more than 2 years old',
		);
	});

	it('says how many user ids a file listed, and which file', () => {
		const ids = Array.from({ length: 500 }, (_, i) => String(1_100_000_000_000_000_000n + BigInt(i)));
		expect(describeFilters({ userIds: ids, userIdsFrom: 'ids.txt' }, roleName)).toBe('every member among the 500 user ids in “ids.txt”');
		expect(describeFilters({ userIds: ids.slice(0, 1), onlyRoleId: '1', joinedAfter: Date.UTC(2024, 0, 31) }, roleName)).toBe(
			'members with @role1 among the one user id listed who joined at or after 2024-01-31 00:00 UTC',
		);
	});

	it('says how many listed ids are not members, once the guild is listed', () => {
		expect(describeListedIds(500, 'ids.txt', undefined)).toBe(
			'Only the 500 user ids in “ids.txt”: who of them are not members is known once the guild is listed.',
		);
		expect(describeListedIds(500, 'ids.txt', 12)).toBe(
			'Only the 500 user ids in “ids.txt”: 12 of them are not members of the server, so nothing is sent for them.',
		);
		expect(describeListedIds(500, 'ids.txt', 1)).toBe(
			'Only the 500 user ids in “ids.txt”: 1 of them is not a member of the server, so nothing is sent for it.',
		);
		expect(describeListedIds(2_000, undefined, 0)).toBe('Only the 2,000 user ids listed: every one of them is a member of the server.');
	});

	it('says what an action that reaches users who are not members did with them, and why it stopped', () => {
		const none = { handed: 0, changed: 0, alreadyDone: 0, leftAlone: 0, failed: 0, limited: 0 };
		const seen = (counts?: typeof none & { stop?: JobError }, dryRun = false) => ({ changed: 'banned', dryRun, memberOnly: [], counts });
		expect(describeListedIds(500, 'raid.csv', 48, seen(none))).toBe(
			'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server (they left, or never joined): they are banned too, once the members are done.',
		);
		expect(describeListedIds(500, 'raid.csv', 48, seen({ ...none, handed: 48, changed: 45, alreadyDone: 2, leftAlone: 1 }))).toBe(
			'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server (they left, or never joined): 45 of them banned, 2 already done, 1 left alone.',
		);
		expect(describeListedIds(500, 'raid.csv', 48, seen({ ...none, handed: 48, changed: 48 }, true))).toContain(': 48 of them would be banned.');
		const stop = new JobError(ErrorCodes.NonMemberBanLimit, 'Discord refused (30035): run it again later.');
		expect(describeListedIds(500, 'raid.csv', 48, seen({ ...none, handed: 48, changed: 30, failed: 18, limited: 18, stop }))).toBe(
			'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server (they left, or never joined): 30 of them banned, 18 failed. ⚠️ Discord refused (30035): run it again later.',
		);
		expect(describeListedIds(500, 'raid.csv', 48, { changed: 'banned', dryRun: false, memberOnly: ['the name pattern', 'the join date'] })).toBe(
			'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server, so nothing is sent for them: only a member can be judged by the name pattern and the join date.',
		);
	});
});
