import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampToSnowflake } from '../../../../src/discord/snowflake.js';
import { compileMemberFilter } from '../../../../src/jobs/filters/compileMemberFilter.js';
import { listingBounds } from '../../../../src/jobs/filters/listingBounds.js';
import type { MemberFilterSpec } from '../../../../src/jobs/filters/MemberFilterSpec.js';

const GUILD = '1100000000000000000';
const EPOCH = 1420070400000;
const NOW = Date.parse('2026-12-01T00:00:00Z');

/** A user id made at `ms`, with any low bits. */
const idAt = (ms: number, low: number): string => String(timestampToSnowflake(ms) + BigInt(low));
const member = (id: string) => ({ id, username: 'nelly', globalName: null, nick: null, roles: [], bot: false, joinedAt: NOW });

describe('listingBounds', () => {
	it("starts a created_after job at that moment's first id and lists everything without bounds", () => {
		expect(listingBounds(undefined)).toEqual({});
		expect(listingBounds({ members: 'humans' })).toEqual({});
		const since = NOW - 86_400_000;
		expect(listingBounds({ createdAfter: since })).toEqual({ after: String(timestampToSnowflake(since) - 1n) });
		// Before Discord's epoch every id is after: no bound.
		expect(listingBounds({ createdAfter: EPOCH - 1000 })).toEqual({});
	});

	it('starts a created_after in the future from now, which no id is made after, never past what a snowflake holds', () => {
		const far = Date.parse('3387-05-05T00:00:00Z');
		expect(listingBounds({ createdAfter: far }, NOW)).toEqual({ after: String(timestampToSnowflake(NOW)) });
	});

	it('bounds a job limited to a file of ids by its first and last id, and takes the narrower of two bounds', () => {
		const ids = [idAt(NOW - 5000, 1), idAt(NOW - 4000, 2), idAt(NOW - 3000, 3)];
		expect(listingBounds({ userIds: ids })).toEqual({ after: String(BigInt(ids[0]!) - 1n), last: ids[2] });
		const narrower = listingBounds({ userIds: ids, createdAfter: NOW - 4500, createdBefore: NOW - 3500 });
		expect(narrower).toEqual({ after: String(timestampToSnowflake(NOW - 4500) - 1n), last: String(timestampToSnowflake(NOW - 3500) - 1n) });
	});

	it('never leaves out a member the filters select', () => {
		const time = fc.integer({ min: EPOCH - 10_000, max: NOW });
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.integer({ min: EPOCH + 365 * 86_400_000, max: NOW }), fc.integer({ min: 0, max: 4_194_303 })), { minLength: 1, maxLength: 40 }),
				fc.option(time, { nil: undefined }),
				fc.option(time, { nil: undefined }),
				fc.boolean(),
				(made, createdAfter, createdBefore, listSome) => {
					const ids = [...new Set(made.map(([ms, low]) => idAt(ms, low)))].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
					const listed = listSome ? ids.filter((_, index) => index % 3 === 1) : [];
					if (createdAfter !== undefined && createdBefore !== undefined && createdBefore <= createdAfter) return;
					const spec: MemberFilterSpec = {
						...(createdAfter === undefined ? {} : { createdAfter }),
						...(createdBefore === undefined ? {} : { createdBefore }),
						...(listed.length > 0 ? { userIds: listed } : {}),
					};
					const selects = compileMemberFilter(spec, { guildId: GUILD });
					const { after, last } = listingBounds(spec);
					for (const id of ids.filter((candidate) => selects(member(candidate)) === undefined)) {
						if (after !== undefined) expect(BigInt(id) > BigInt(after), id).toBe(true);
						if (last !== undefined) expect(BigInt(id) <= BigInt(last), id).toBe(true);
					}
				},
			),
		);
	});
});
