/** The soak's invariants as `bench/results-soak.json` records them: each figure, and the bound it is held to. */
export interface SoakInvariants {
	notRenamedAtEnd: number;
	originalsLost: number;
	changedTwice: number;
	changedTwiceBound: number;
	changesByWrongWorker: number;
	changesAfterLeaving: number;
	/** The 403s while each role move lasted. */
	forbiddenAfterRoleMoves: number[];
	forbiddenBound: number;
	roleMoveHolders: number[];
	notFound404s: { rename: number; restore: number; massrole: number; afterRoleDeleted: number };
	memberNotFound404sNotOfLeavers: number;
	rateLimited429sOutsideShared: number;
	diskFull: { stoppedWithMessage: boolean; message: string | null; unjournaledChanges: number; finishedAfterFreeing: boolean };
	massroleRoleChanges: {
		stoppedAtMoveWithMessage: boolean;
		moveMessage: string | null;
		/** `null` when the role was never moved: the fault did not run. */
		forbiddenAfterMove: number | null;
		stoppedAtDeleteWithMessage: boolean;
		deleteMessage: string | null;
		notFoundAfterDelete: number;
		bound: number;
	};
}

/** The names of the invariants that do not hold; none when the soak passed. */
export function brokenInvariants(invariants: SoakInvariants): string[] {
	const { diskFull, massroleRoleChanges: role } = invariants;
	const broken: Record<string, boolean> = {
		notRenamedAtEnd: invariants.notRenamedAtEnd > 0,
		originalsLost: invariants.originalsLost > 0,
		changedTwice: invariants.changedTwice > invariants.changedTwiceBound,
		changesByWrongWorker: invariants.changesByWrongWorker > 0,
		changesAfterLeaving: invariants.changesAfterLeaving > 0,
		forbiddenAfterRoleMoves: invariants.forbiddenAfterRoleMoves.some((count) => count > invariants.forbiddenBound),
		memberNotFound404sNotOfLeavers: invariants.memberNotFound404sNotOfLeavers > 0,
		rateLimited429sOutsideShared: invariants.rateLimited429sOutsideShared > 0,
		'diskFull.stoppedWithMessage': !diskFull.stoppedWithMessage,
		'diskFull.unjournaledChanges': diskFull.unjournaledChanges > 0,
		'diskFull.finishedAfterFreeing': !diskFull.finishedAfterFreeing,
		'massroleRoleChanges.stoppedAtMoveWithMessage': !role.stoppedAtMoveWithMessage,
		'massroleRoleChanges.forbiddenAfterMove': role.forbiddenAfterMove === null || role.forbiddenAfterMove > role.bound,
		'massroleRoleChanges.stoppedAtDeleteWithMessage': !role.stoppedAtDeleteWithMessage,
		'massroleRoleChanges.notFoundAfterDelete': role.notFoundAfterDelete > role.bound,
	};
	return Object.entries(broken).flatMap(([name, isBroken]) => (isBroken ? [name] : []));
}
