import { describe, expect, it } from 'vitest';
import { brokenInvariants, type SoakInvariants } from '../../../../bench/soak/verdict.js';

/** A soak where everything held, as a results file records it. */
const held: SoakInvariants = {
	notRenamedAtEnd: 0,
	originalsLost: 0,
	changedTwice: 10,
	changedTwiceBound: 800,
	changesByWrongWorker: 0,
	changesAfterLeaving: 0,
	forbiddenAfterRoleMoves: [24],
	forbiddenBound: 100,
	roleMoveHolders: [47_786],
	notFound404s: { rename: 0, restore: 0, massrole: 0, afterRoleDeleted: 3 },
	memberNotFound404sNotOfLeavers: 0,
	rateLimited429sOutsideShared: 0,
	diskFull: { stoppedWithMessage: true, message: 'Writing the journal …', unjournaledChanges: 0, finishedAfterFreeing: true },
	massroleRoleChanges: {
		stoppedAtMoveWithMessage: true,
		moveMessage: '…',
		forbiddenAfterMove: 0,
		stoppedAtDeleteWithMessage: true,
		deleteMessage: '…',
		notFoundAfterDelete: 3,
		bound: 100,
	},
};

describe('the soak’s verdict', () => {
	it('a soak where every invariant held, its bounds included, breaks none', () => {
		expect(brokenInvariants(held)).toEqual([]);
	});

	it.each<[string, Partial<SoakInvariants>]>([
		['notRenamedAtEnd', { notRenamedAtEnd: 1 }],
		['originalsLost', { originalsLost: 1 }],
		['changedTwice', { changedTwice: 801 }],
		['changesByWrongWorker', { changesByWrongWorker: 1 }],
		['changesAfterLeaving', { changesAfterLeaving: 1 }],
		['forbiddenAfterRoleMoves', { forbiddenAfterRoleMoves: [24, 101] }],
		['memberNotFound404sNotOfLeavers', { memberNotFound404sNotOfLeavers: 1 }],
		['rateLimited429sOutsideShared', { rateLimited429sOutsideShared: 1 }],
		['diskFull.stoppedWithMessage', { diskFull: { ...held.diskFull, stoppedWithMessage: false } }],
		['diskFull.unjournaledChanges', { diskFull: { ...held.diskFull, unjournaledChanges: 1 } }],
		['diskFull.finishedAfterFreeing', { diskFull: { ...held.diskFull, finishedAfterFreeing: false } }],
		['massroleRoleChanges.stoppedAtMoveWithMessage', { massroleRoleChanges: { ...held.massroleRoleChanges, stoppedAtMoveWithMessage: false } }],
		['massroleRoleChanges.forbiddenAfterMove', { massroleRoleChanges: { ...held.massroleRoleChanges, forbiddenAfterMove: 101 } }],
		['massroleRoleChanges.forbiddenAfterMove', { massroleRoleChanges: { ...held.massroleRoleChanges, forbiddenAfterMove: null } }],
		['massroleRoleChanges.stoppedAtDeleteWithMessage', { massroleRoleChanges: { ...held.massroleRoleChanges, stoppedAtDeleteWithMessage: false } }],
		['massroleRoleChanges.notFoundAfterDelete', { massroleRoleChanges: { ...held.massroleRoleChanges, notFoundAfterDelete: 101 } }],
	])('%s, broken, is named', (name, change) => {
		expect(brokenInvariants({ ...held, ...change })).toEqual([name]);
	});
});
