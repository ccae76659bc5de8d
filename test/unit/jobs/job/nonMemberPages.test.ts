import { describe, expect, it } from 'vitest';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { NON_MEMBER_PAGE_SIZE, nonMemberPages } from '../../../../src/jobs/job/nonMemberPages.js';

/** The n-th id of the test: snowflakes 17 digits long, in order. */
const id = (n: number): string => String(10_000_000_000_000_000n + BigInt(n));

/** A ban list of `banned`, served in pages of `pageSize` after the id asked; it records each page read. */
function banList(banned: number[], pageSize: number) {
	const reads: string[] = [];
	const bans = async function* (after: string): AsyncGenerator<MemberRecord[]> {
		const ids = banned.map(id).filter((ban) => BigInt(ban) > BigInt(after));
		for (let start = 0; start < ids.length; start += pageSize) {
			reads.push(start === 0 ? after : ids[start - 1]!);
			yield ids.slice(start, start + pageSize).map((ban) => ({ id: ban, username: ban, globalName: null, nick: null, roles: [], bot: false, banned: true }));
		}
	};
	return { bans, reads };
}

async function collect(ids: string[], bans: ReturnType<typeof banList>['bans']): Promise<MemberRecord[][]> {
	const pages: MemberRecord[][] = [];
	for await (const page of nonMemberPages(ids, bans)) pages.push(page);
	return pages;
}

describe('nonMemberPages', () => {
	it('gives every id once, in order, as a user who is not a member, marked banned where the ban list holds them', async () => {
		const ids = [3, 5, 8, 13, 21].map(id);
		const { bans } = banList([1, 5, 6, 13, 40], 2);
		const records = (await collect(ids, bans)).flat();
		expect(records.map((record) => record.id)).toEqual(ids);
		expect(records.every((record) => record.nonMember === true && record.roles.length === 0)).toBe(true);
		expect(records.filter((record) => record.banned).map((record) => record.id)).toEqual([id(5), id(13)]);
	});

	it('reads the ban list from just below the first id and no page past the last', async () => {
		const { bans, reads } = banList([1, 2, 10, 11, 12, 13, 14, 15, 50, 60, 70], 2);
		await collect([10, 12, 13].map(id), bans);
		expect(reads).toEqual([id(9), id(11)]);
	});

	it('comes in pages of at most 1,000, however many the ban list frees at once', async () => {
		const ids = Array.from({ length: 2500 }, (_, n) => id(2 * n));
		const { bans } = banList([4999, 7000], 1000);
		const pages = await collect(ids, bans);
		expect(pages.map((page) => page.length)).toEqual([NON_MEMBER_PAGE_SIZE, NON_MEMBER_PAGE_SIZE, 500]);
		expect(pages.flat().some((record) => record.banned)).toBe(false);
	});

	it('gives nothing for no ids, and reads no ban list', async () => {
		const { bans, reads } = banList([1], 10);
		expect(await collect([], bans)).toEqual([]);
		expect(reads).toEqual([]);
	});
});
