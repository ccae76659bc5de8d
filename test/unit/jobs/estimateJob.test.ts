import { describe, expect, it } from 'vitest';
import { estimateRoleChange } from '../../../src/actions/role/estimateRoleChange.js';
import {
	changesPerSecond,
	estimateDurationMs,
	estimateMemberEdit,
	estimateShareMs,
	estimateRestore,
	type GuildCounts,
	membersInScope,
} from '../../../src/jobs/estimateJob.js';
import { GUILD_ID as GUILD, guildContext, OWNER_ID as OWNER } from '../../support/guildContext.js';

const WORKERS_ROLE = '200000000000000001';
const MOD = '200000000000000002';
const ADMIN = '200000000000000003';
const STAFF = '200000000000000004';
const EVENT = '200000000000000005';

/** A guild of 1,000,000 members and 3 bots of ours (the boss and 2 workers, holding the workers' role). */
const ctx = guildContext({
	roles: [
		[EVENT, 1],
		[STAFF, 2],
		[WORKERS_ROLE, 5],
		[MOD, 6],
		[ADMIN, 7],
	],
	botUserIds: ['1', '2', '3'],
	workerHighestPosition: 5,
});

const counts: GuildCounts = {
	members: 1_000_003,
	roleMembers: { [EVENT]: 400_000, [STAFF]: 50, [WORKERS_ROLE]: 2, [MOD]: 30, [ADMIN]: 5 },
	ourBots: [[], [WORKERS_ROLE], [WORKERS_ROLE]],
};

describe('membersInScope', () => {
	it('is everyone but our bots without filters, exactly', () => {
		expect(membersInScope(counts, ctx, {})).toEqual({ atLeast: 1_000_000, atMost: 1_000_000 });
	});

	it('is the only role’s holders; @everyone as only role means everyone', () => {
		expect(membersInScope(counts, ctx, { onlyRoleId: STAFF })).toEqual({ atLeast: 50, atMost: 50 });
		expect(membersInScope(counts, ctx, { onlyRoleId: GUILD })).toEqual({ atLeast: 1_000_000, atMost: 1_000_000 });
	});

	it('takes the excluded role off exactly without an only role, and as a range with one (who holds both is unknown)', () => {
		expect(membersInScope(counts, ctx, { excludeRoleId: EVENT })).toEqual({ atLeast: 600_000, atMost: 600_000 });
		expect(membersInScope(counts, ctx, { onlyRoleId: STAFF, excludeRoleId: MOD })).toEqual({ atLeast: 20, atMost: 50 });
		expect(membersInScope(counts, ctx, { onlyRoleId: STAFF, excludeRoleId: STAFF })).toEqual({ atLeast: 0, atMost: 0 });
	});

	it('a list of user ids holds at most its length of members, none for sure (some may have left)', () => {
		const userIds = ['1100000000000000001', '1100000000000000002', '1100000000000000003'];
		expect(membersInScope(counts, ctx, { userIds })).toEqual({ atLeast: 0, atMost: 3 });
		expect(membersInScope(counts, ctx, { userIds, onlyRoleId: ADMIN, excludeRoleId: EVENT })).toEqual({ atLeast: 0, atMost: 3 });
		expect(membersInScope(counts, ctx, { userIds, onlyRoleId: STAFF, excludeRoleId: STAFF })).toEqual({ atLeast: 0, atMost: 0 });
		expect(estimateMemberEdit(counts, ctx, { userIds }).change).toEqual({ atLeast: 0, atMost: 3 });
	});
});

describe('estimateMemberEdit', () => {
	it("counts up to the holders of roles at or above the workers' (our bots left out) and the owner as can't", () => {
		const estimate = estimateMemberEdit(counts, ctx, {});
		// Workers' role: 2 holders, both our bots; Moderator 30; Admin 5; the owner 1.
		expect(estimate.cant).toEqual({ atLeast: 30, atMost: 36 });
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 1_000_000 - 30 });
		expect(estimate.done).toBeUndefined();
	});

	it("can't is at most the scope, and unknown below with a filter", () => {
		const estimate = estimateMemberEdit(counts, ctx, { onlyRoleId: STAFF });
		expect(estimate.cant).toEqual({ atLeast: 0, atMost: 36 });
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 50 });
		expect(estimateMemberEdit(counts, ctx, { onlyRoleId: ADMIN }).cant).toEqual({ atLeast: 0, atMost: 5 });
	});

	it('with no worker ready, nobody can be renamed', () => {
		const estimate = estimateMemberEdit(counts, { ...ctx, workerHighestPosition: 0 }, {});
		expect(estimate.cant).toEqual(estimate.inScope);
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 0 });
	});
});

describe('estimateRoleChange', () => {
	it('add changes exactly those who lack the role, and counts its holders as done, without filters', () => {
		expect(estimateRoleChange(counts, ctx, {}, EVENT, 'add')).toEqual({
			inScope: { atLeast: 1_000_000, atMost: 1_000_000 },
			change: { atLeast: 600_000, atMost: 600_000 },
			done: { atLeast: 400_000, atMost: 400_000 },
			cant: { atLeast: 0, atMost: 0 },
		});
	});

	it('remove changes exactly its holders', () => {
		const estimate = estimateRoleChange(counts, ctx, {}, EVENT, 'remove');
		expect(estimate.change).toEqual({ atLeast: 400_000, atMost: 400_000 });
		expect(estimate.done).toEqual({ atLeast: 600_000, atMost: 600_000 });
	});

	it('with an only role, the overlap is a range within the scope', () => {
		const estimate = estimateRoleChange(counts, ctx, { onlyRoleId: STAFF }, EVENT, 'add');
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 50 });
		expect(estimate.done).toEqual({ atLeast: 0, atMost: 50 });
		// Only members with the role itself: all done for add, all changed for remove.
		expect(estimateRoleChange(counts, ctx, { onlyRoleId: EVENT }, EVENT, 'add').change).toEqual({ atLeast: 0, atMost: 0 });
		expect(estimateRoleChange(counts, ctx, { excludeRoleId: EVENT }, EVENT, 'remove').change).toEqual({ atLeast: 0, atMost: 0 });
	});

	it('leaves our bots out of the role’s count', () => {
		const estimate = estimateRoleChange(counts, ctx, {}, WORKERS_ROLE, 'remove');
		expect(estimate.change).toEqual({ atLeast: 0, atMost: 0 });
	});
});

describe('estimateRestore and estimateDurationMs', () => {
	it('a restore gives back up to what the job changed, or says nothing when its journal has no count', () => {
		expect(estimateRestore(1234)).toEqual({ change: { atLeast: 0, atMost: 1234 } });
		expect(estimateRestore(undefined)).toEqual({});
	});

	it('the time is the changes at one a second per worker (10 per 10 s per token)', () => {
		expect(estimateDurationMs(1_000_000, 10)).toBe(100_000_000);
		expect(estimateDurationMs(600, 10)).toBe(60_000);
		expect(estimateDurationMs(600, 0)).toBeNull();
	});

	it("a process holding some workers takes as long for its workers' share as the whole fleet takes for all", () => {
		expect(estimateShareMs(1_000_000, { active: 10, held: 10, count: 10 })).toBe(100_000_000);
		expect(estimateShareMs(1_000_000, { active: 5, held: 5, count: 10 })).toBe(100_000_000);
		// A worker of this process not connected: the others here take its members too.
		expect(estimateShareMs(1_000_000, { active: 4, held: 5, count: 10 })).toBe(125_000_000);
		expect(estimateShareMs(1_000_000, { active: 0, held: 0, count: 10 })).toBeNull();
	});
});

describe("estimateMemberEdit within the requester's reach", () => {
	const helper = (position: number, roleName = 'Staff') => ({ ...ctx, requester: { kind: 'member' as const, userId: '9', position, roleName } });

	it('counts the holders of the roles from the requester up to below the workers as out of their reach, apart from what the bots cannot', () => {
		const estimate = estimateMemberEdit(counts, helper(2), {});
		// Staff (50, the requester's own rank) is out of their reach; Mod and Admin stay the bots' can't.
		expect(estimate.cant).toEqual(estimateMemberEdit(counts, ctx, {}).cant);
		expect(estimate.aboveRequester).toEqual({ atLeast: 14, atMost: 50 });
		expect(estimate.change!.atMost).toBe(1_000_000 - estimate.cant!.atLeast - 14);
	});

	it('puts everyone the bots reach out of the reach of a requester who holds no role', () => {
		const estimate = estimateMemberEdit(counts, helper(0, 'everyone'), {});
		const cant = estimate.cant!;
		expect(estimate.aboveRequester).toEqual({ atLeast: 1_000_000 - cant.atMost, atMost: 1_000_000 - cant.atLeast });
		expect(estimate.change!.atMost).toBe(cant.atMost - cant.atLeast);
	});

	it('bounds nobody more than the bots for a requester ranked at or above the workers, nor for the owner or the operator', () => {
		expect(estimateMemberEdit(counts, helper(6, 'Mod'), {}).aboveRequester).toEqual({ atLeast: 0, atMost: 0 });
		expect(estimateMemberEdit(counts, { ...ctx, requester: { kind: 'owner', userId: OWNER } }, {}).aboveRequester).toBeUndefined();
		expect(estimateMemberEdit(counts, { ...ctx, requester: { kind: 'operator' } }, {}).aboveRequester).toBeUndefined();
	});

	it('gives a range from 0 when filters leave who holds what unknown', () => {
		expect(estimateMemberEdit(counts, helper(1, 'Event'), { onlyRoleId: EVENT }).aboveRequester).toEqual({ atLeast: 0, atMost: 400_000 });
	});
});

describe('changesPerSecond', () => {
	it('a batching action’s job goes at its batched pace, its undo and every other action one change a second per worker', () => {
		const batching = { applyBatch: { size: 200, perSecond: 200, send: () => Promise.resolve({ failed: new Map() }) } };
		expect(changesPerSecond(batching, false)).toBe(200);
		expect(changesPerSecond(batching, true)).toBe(1);
		expect(changesPerSecond({}, false)).toBe(1);
		// 2,000 bans over 10 workers at 200 a second each: one second, not 200.
		expect(estimateShareMs(2000, { active: 10, held: 10, count: 10 }, changesPerSecond(batching, false))).toBe(1000);
	});
});
