import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { compileMemberFilter, type FilterableMember, type MemberFilterSkip } from '../../../../src/jobs/filters/compileMemberFilter.js';
import type { MemberFilterSpec } from '../../../../src/jobs/filters/MemberFilterSpec.js';

const GUILD = '1100000000000000000';
const ctx = { guildId: GUILD };
const EPOCH = 1420070400000;
/** Discord's documented example id, and the millisecond it was made. */
const EXAMPLE_ID = '175928847299117063';
const EXAMPLE_MS = Date.parse('2016-04-30T11:18:25.796Z');
const JOINED = Date.parse('2020-06-01T00:00:00Z');

function member(fields: Partial<FilterableMember> = {}): FilterableMember {
	return { id: EXAMPLE_ID, username: 'nelly', globalName: null, nick: null, roles: [], bot: false, joinedAt: JOINED, ...fields };
}

const skip = (spec: MemberFilterSpec, fields: Partial<FilterableMember> = {}) => compileMemberFilter(spec, ctx)(member(fields));

function refusal(spec: MemberFilterSpec): JobError {
	try {
		compileMemberFilter(spec, ctx);
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		expect((error as JobError).code).toBe(ErrorCodes.InvalidArgument);
		return error as JobError;
	}
	throw new Error(`${JSON.stringify(spec)} was accepted`);
}

describe('compileMemberFilter', () => {
	it('an empty spec keeps every member', () => {
		expect(skip({})).toBeUndefined();
		expect(skip({ members: 'all', noRoles: false }, { bot: true, roles: ['1'], joinedAt: null })).toBeUndefined();
	});

	it('humans leaves bots out, bots leaves humans out', () => {
		expect(skip({ members: 'humans' }, { bot: true })).toBe('is-a-bot');
		expect(skip({ members: 'humans' }, { bot: false })).toBeUndefined();
		expect(skip({ members: 'bots' }, { bot: false })).toBe('not-a-bot');
		expect(skip({ members: 'bots' }, { bot: true })).toBeUndefined();
	});

	it('noRoles keeps only members with no role but @everyone', () => {
		expect(skip({ noRoles: true }, { roles: [] })).toBeUndefined();
		expect(skip({ noRoles: true }, { roles: [GUILD] })).toBeUndefined();
		expect(skip({ noRoles: true }, { roles: ['1200000000000000000'] })).toBe('has-roles');
		expect(skip({ noRoles: true }, { roles: [GUILD, '1200000000000000000'] })).toBe('has-roles');
	});

	it("reads account age from the id: Discord's example was made at 2016-04-30T11:18:25.796Z", () => {
		expect(skip({ createdBefore: EXAMPLE_MS + 1 })).toBeUndefined();
		expect(skip({ createdBefore: EXAMPLE_MS })).toBe('created-after');
		expect(skip({ createdAfter: EXAMPLE_MS })).toBeUndefined();
		expect(skip({ createdAfter: EXAMPLE_MS + 1 })).toBe('created-before');
		expect(skip({ createdAfter: EXAMPLE_MS - 0.5, createdBefore: EXAMPLE_MS + 0.5 })).toBeUndefined();
	});

	it('compares ids of other lengths by value', () => {
		const second = '4194304'; // made at the epoch's first millisecond + 1
		const last = '18446744073709551615'; // the largest 64-bit id, made in 2154
		expect(skip({ createdBefore: EPOCH + 2 }, { id: second })).toBeUndefined();
		expect(skip({ createdAfter: EPOCH + 2 }, { id: second })).toBe('created-before');
		expect(skip({ createdBefore: Date.parse('2100-01-01') }, { id: last })).toBe('created-after');
		expect(skip({ createdAfter: Date.parse('2100-01-01') }, { id: last })).toBeUndefined();
	});

	it("a time before Discord's epoch is before every account", () => {
		expect(skip({ createdAfter: 0 })).toBeUndefined();
		expect(skip({ createdBefore: EPOCH - 1 })).toBe('created-after');
	});

	it('the join window is half-open, so before and after one time split the guild with no member in both', () => {
		for (const joinedAt of [JOINED - 1, JOINED, JOINED + 1]) {
			const before = skip({ joinedBefore: JOINED }, { joinedAt }) === undefined;
			const after = skip({ joinedAfter: JOINED }, { joinedAt }) === undefined;
			expect(before).not.toBe(after);
		}
		expect(skip({ joinedBefore: JOINED }, { joinedAt: JOINED })).toBe('joined-after');
		expect(skip({ joinedAfter: JOINED + 1 }, { joinedAt: JOINED })).toBe('joined-before');
	});

	it('a member whose join time Discord does not give is outside any join filter', () => {
		expect(skip({ joinedBefore: JOINED }, { joinedAt: null })).toBe('joined-unknown');
		expect(skip({ joinedAfter: 0 }, { joinedAt: null })).toBe('joined-unknown');
		expect(skip({ createdAfter: 0 }, { joinedAt: null })).toBeUndefined();
	});

	it('a name pattern matches the username, the display name or the nickname', () => {
		const spec = { nameMatches: '/^mod/i' };
		expect(skip(spec, { username: 'moderna' })).toBeUndefined();
		expect(skip(spec, { globalName: 'Moderna' })).toBeUndefined();
		expect(skip(spec, { nick: 'MOD Nelly' })).toBeUndefined();
		expect(skip(spec, { globalName: 'Nelly', nick: 'a mod' })).toBe('name-mismatch');
		expect(skip({ nameMatches: 'ell' }, { username: 'x', nick: 'NELLY' })).toBeUndefined();
	});

	it('a hostile pattern on a hostile name answers: (a+)+$ on aaa…ab', () => {
		const name = `${'a'.repeat(32)}b`;
		expect(skip({ nameMatches: '/(a+)+$/' }, { username: name, globalName: name, nick: name })).toBe('name-mismatch');
	});

	it('a member outside several filters gets the first reason: kind, roles, account, join, name', () => {
		const spec: MemberFilterSpec = { members: 'humans', noRoles: true, createdAfter: EXAMPLE_MS + 1, joinedBefore: JOINED, nameMatches: 'zzz' };
		const outside: Partial<FilterableMember> = { bot: true, roles: ['1'], joinedAt: JOINED };
		expect(skip(spec, outside)).toBe('is-a-bot');
		expect(skip(spec, { ...outside, bot: false })).toBe('has-roles');
		expect(skip(spec, { ...outside, bot: false, roles: [] })).toBe('created-before');
		expect(skip(spec, { ...outside, bot: false, roles: [], id: '1100000000000000000' })).toBe('joined-after');
		const inside: Partial<FilterableMember> = { bot: false, roles: [], id: '1100000000000000000', joinedAt: JOINED - 1 };
		expect(skip(spec, inside)).toBe('name-mismatch');
		expect(skip(spec, { ...inside, nick: 'zzz' })).toBeUndefined();
	});

	it('a list of user ids keeps exactly the members it lists', () => {
		const spec: MemberFilterSpec = { userIds: [EXAMPLE_ID, '1100000000000000001'], userIdsFrom: 'raid.csv' };
		expect(skip(spec)).toBeUndefined();
		expect(skip(spec, { id: '1100000000000000001' })).toBeUndefined();
		expect(skip(spec, { id: '1100000000000000002' })).toBe('not-listed');
		// The same digits as a listed id with another length are another id.
		expect(skip(spec, { id: '17592884729911706' })).toBe('not-listed');
	});

	it('a listed member outside another filter gets that filter’s reason; an unlisted one "not-listed" after kind and roles', () => {
		const spec: MemberFilterSpec = { userIds: [EXAMPLE_ID], members: 'humans', noRoles: true, createdAfter: EXAMPLE_MS + 1, nameMatches: 'zzz' };
		expect(skip(spec, { bot: true, id: '1100000000000000002' })).toBe('is-a-bot');
		expect(skip(spec, { roles: ['1'], id: '1100000000000000002' })).toBe('has-roles');
		expect(skip(spec, { id: '1100000000000000002' })).toBe('not-listed');
		expect(skip(spec)).toBe('created-before');
		expect(skip({ userIds: [EXAMPLE_ID], nameMatches: 'zzz' })).toBe('name-mismatch');
	});

	it('refuses a list of ids that parseIdList would not leave, naming the field', () => {
		expect(refusal({ userIds: [] }).message).toBe("The member filter's userIds must be a list of at least one user id.");
		expect(refusal({ userIds: 'x' as unknown as string[] }).message).toContain('userIds must be a list');
		expect(refusal({ userIds: [EXAMPLE_ID, 'alice'] }).message).toBe(`The member filter's userIds has "alice" at 1, not a user id.`);
		expect(refusal({ userIds: ['1100000000000000001', EXAMPLE_ID] }).message).toContain('is not sorted by value without repeats at 1');
		expect(refusal({ userIds: [EXAMPLE_ID, EXAMPLE_ID] }).message).toContain('without repeats');
		expect(refusal({ userIds: [EXAMPLE_ID], userIdsFrom: 3 as unknown as string }).message).toContain('userIdsFrom must be a text');
	});

	it('a spec read back from JSON decides the same', () => {
		const spec: MemberFilterSpec = { members: 'bots', noRoles: undefined, joinedAfter: JOINED, nameMatches: '/b\\/t/', userIds: [EXAMPLE_ID] };
		const revived = JSON.parse(JSON.stringify(spec)) as MemberFilterSpec;
		const fields = { bot: true, username: 'b/t', joinedAt: JOINED };
		expect(compileMemberFilter(revived, ctx)(member(fields))).toBe(compileMemberFilter(spec, ctx)(member(fields)));
		expect(compileMemberFilter(revived, ctx)(member(fields))).toBeUndefined();
	});

	it('refuses a spec it cannot use, naming the field', () => {
		expect(refusal({ members: 'robots' as 'bots' }).message).toBe(`The member filter's members is "robots"; it must be one of all, humans, bots.`);
		expect(refusal({ noRoles: 'yes' as unknown as boolean }).message).toContain('noRoles');
		expect(refusal({ createdBefore: Number.NaN }).message).toContain('createdBefore is NaN, not a time');
		expect(refusal({ joinedAfter: '2024-01-01' as unknown as number }).message).toContain('joinedAfter');
		expect(refusal({ joinedAfter: JOINED, joinedBefore: JOINED }).message).toBe(
			"The member filter's joinedAfter (2020-06-01T00:00:00.000Z) is not before joinedBefore (2020-06-01T00:00:00.000Z), so no member could be in the job.",
		);
		expect(refusal({ createdAfter: JOINED + 1, createdBefore: JOINED }).message).toContain('no member could be in the job');
		expect(refusal({ nameMatches: '/(/' }).message).toContain('missing closing )');
	});
});

/**
 * The compiled filter against a plain reading of the spec: BigInt timestamps, `toLowerCase` for
 * substrings (the names are ASCII), Node's `RegExp` for a few patterns both engines read alike.
 */
function reference(spec: MemberFilterSpec, m: FilterableMember): MemberFilterSkip | undefined {
	if (spec.members === 'humans' && m.bot) return 'is-a-bot';
	if (spec.members === 'bots' && !m.bot) return 'not-a-bot';
	if (spec.noRoles === true && m.roles.some((role) => role !== GUILD)) return 'has-roles';
	if (spec.userIds !== undefined && !spec.userIds.includes(m.id)) return 'not-listed';
	const created = Number((BigInt(m.id) >> 22n) + BigInt(EPOCH));
	if (spec.createdAfter !== undefined && created < spec.createdAfter) return 'created-before';
	if (spec.createdBefore !== undefined && created >= spec.createdBefore) return 'created-after';
	if (spec.joinedAfter !== undefined || spec.joinedBefore !== undefined) {
		if (m.joinedAt === null || m.joinedAt === undefined) return 'joined-unknown';
		if (spec.joinedAfter !== undefined && m.joinedAt < spec.joinedAfter) return 'joined-before';
		if (spec.joinedBefore !== undefined && m.joinedAt >= spec.joinedBefore) return 'joined-after';
	}
	if (spec.nameMatches !== undefined) {
		const regex = /^\/(.*)\/([a-z]*)$/.exec(spec.nameMatches);
		const matches = regex
			? (name: string) => new RegExp(regex[1] ?? '', regex[2]).test(name)
			: (name: string) => name.toLowerCase().includes((spec.nameMatches ?? '').toLowerCase());
		const names = [m.username, m.globalName, m.nick].filter((name): name is string => name !== null);
		if (!names.some(matches)) return 'name-mismatch';
	}
	return undefined;
}

describe('compileMemberFilter, generated', () => {
	// Times cluster around a few instants, and ids are often a millisecond's first or last, so
	// members land on the filters' edges often.
	const base = fc.constantFrom(EPOCH, EXAMPLE_MS, JOINED, Date.parse('2024-01-31T00:00:00Z'), 2 ** 42 + EPOCH - 1);
	const time = fc.tuple(base, fc.integer({ min: -3, max: 3 })).map(([at, offset]) => at + offset);
	const anyTime = fc.oneof(time, fc.integer({ min: EPOCH, max: EPOCH + 2 ** 42 - 1 }));
	const filterTime = fc.oneof(
		time,
		anyTime,
		time.map((at) => at + 0.5),
		fc.constant(0),
	);
	const id = fc
		.tuple(anyTime, fc.oneof(fc.constantFrom(0, 2 ** 22 - 1), fc.integer({ min: 0, max: 2 ** 22 - 1 })))
		.map(([at, low]) => String((BigInt(Math.min(Math.max(at - EPOCH, 0), 2 ** 42 - 1)) << 22n) | BigInt(low)));
	const name = fc.string({ unit: fc.constantFrom('a', 'b', 'A', 'B', '1', '.', '/'), maxLength: 6 });
	const generatedMember = fc.record<FilterableMember>({
		id,
		username: name,
		globalName: fc.option(name, { nil: null }),
		nick: fc.option(name, { nil: null }),
		roles: fc.uniqueArray(fc.constantFrom(GUILD, '1200000000000000000', '1300000000000000000'), { maxLength: 3 }),
		bot: fc.boolean(),
		joinedAt: fc.option(time, { nil: null }),
	});
	const pattern = fc.oneof(
		fc.string({ unit: fc.constantFrom('a', 'b', 'A', '1', '.'), minLength: 1, maxLength: 3 }),
		fc.constantFrom('/^a/', '/b$/i', '/a.b/', '/(ab)+/i', '/[0-9]{1,2}b/', '/\\//', '/^(a|A)*$/'),
	);
	const spec = fc.record<MemberFilterSpec>(
		{
			members: fc.constantFrom('all', 'humans', 'bots'),
			noRoles: fc.boolean(),
			joinedBefore: filterTime,
			joinedAfter: filterTime,
			createdBefore: filterTime,
			createdAfter: filterTime,
			nameMatches: pattern,
			userIds: fc
				.uniqueArray(
					id.filter((value) => value.length >= 17),
					{ minLength: 1, maxLength: 4 },
				)
				.map((ids) => ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))),
		},
		{ requiredKeys: [] },
	);

	it('decides every member as the plain reading of the spec does, and refuses exactly the empty windows', () => {
		fc.assert(
			fc.property(spec, fc.array(generatedMember, { minLength: 1, maxLength: 20 }), (s, generated) => {
				// Some members are listed ones.
				const members = generated.map((m, i) => (s.userIds && i % 2 === 0 ? { ...m, id: s.userIds[i % s.userIds.length]! } : m));
				const empty =
					(s.joinedAfter !== undefined && s.joinedBefore !== undefined && s.joinedAfter >= s.joinedBefore) ||
					(s.createdAfter !== undefined && s.createdBefore !== undefined && s.createdAfter >= s.createdBefore);
				if (empty) {
					expect(() => compileMemberFilter(s, ctx)).toThrow(JobError);
					return;
				}
				const filter = compileMemberFilter(s, ctx);
				for (const m of members) expect(filter(m)).toBe(reference(s, m));
			}),
			{ seed: 20_160_430, numRuns: 3_000 },
		);
	});
});

describe("compileMemberFilter: a rule's durations (ago)", () => {
	const at = Date.parse('2026-12-01T00:00:00Z');

	it('takes durations for time filters it holds resolved', () => {
		expect(skip({ createdAfter: at, ago: { createdAfter: '1d' } })).toBe('created-before');
	});

	it('refuses what a journal header could hold wrong, naming ago', () => {
		expect(refusal({ createdAfter: at, ago: { createdAfter: '2026-12-01' } }).message).toMatch(/ago holds "2026-12-01" for createdAfter, not a duration/);
		expect(refusal({ ago: { createdAfter: '1d' } }).message).toMatch(/ago holds a duration for createdAfter, which is not set/);
		expect(refusal({ nameMatches: 'x', ago: { nameMatches: '1d' } as never }).message).toMatch(/ago names "nameMatches", not a time filter/);
		expect(refusal({ ago: [] as never }).message).toMatch(/ago must be an object of durations/);
	});
});
