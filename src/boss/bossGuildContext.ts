import type { GuildContext } from '../jobs/index.js';

/** One worker as the boss sees it: one of this process, or one another process holds. */
export interface WorkerSight {
	/** The worker's bot user. */
	readonly userId?: string | undefined;
	/** A worker of this process that can take work: its highest role's position, from its own gateway. */
	readonly position?: number | undefined;
	/**
	 * A worker of another process: its bot's roles in the guild, as the boss read them (`null`: the
	 * bot is not in the guild, so it reaches nobody and ranks nobody out).
	 */
	readonly roles?: readonly string[] | null | undefined;
}

export interface BossGuildContextInput {
	readonly guildId: string;
	readonly ownerId: string;
	/** Role id → position, `@everyone` (the guild's id) at 0. */
	readonly rolePositions: ReadonlyMap<string, number>;
	/** The roles that grant Administrator (see `GuildContext.administratorRoleIds`). */
	readonly administratorRoleIds: ReadonlySet<string>;
	readonly bossUserId: string;
	/** Every worker the boss knows the bot of, here or elsewhere. */
	readonly workers: readonly WorkerSight[];
	/** Workers of other processes whose bot the boss does not know (no token to read it with). */
	readonly unknown: number;
}

/**
 * The guild as the boss's planner sees it: our bots are the boss and every worker's bot it knows,
 * wherever the worker runs, and the workers reach below the lowest of their highest roles. A
 * worker of another process counts by its bot's roles in the guild and the roles' positions now,
 * so moving the workers' role shows at once.
 *
 * With no worker's position known, the workers reach nobody (0), as when every worker of a
 * process holding them all is stopped; unless some workers' bots are unknown to the boss (they
 * run elsewhere and it has no token of theirs), when their reach is unknown too: `Infinity`,
 * so that a count plans no member out of reach but the owner, rather than every member.
 */
export function bossGuildContext(input: BossGuildContextInput): GuildContext {
	const botUserIds = new Set<string>([input.bossUserId]);
	const positions: number[] = [];
	for (const worker of input.workers) {
		if (worker.userId !== undefined) botUserIds.add(worker.userId);
		if (worker.position !== undefined) positions.push(worker.position);
		else if (worker.roles) positions.push(highestOf(worker.roles, input.rolePositions));
	}
	const unreached = input.unknown > 0 ? Number.POSITIVE_INFINITY : 0;
	return {
		guildId: input.guildId,
		ownerId: input.ownerId,
		rolePositions: input.rolePositions,
		botUserIds,
		workerHighestPosition: positions.length > 0 ? Math.min(...positions) : unreached,
		administratorRoleIds: input.administratorRoleIds,
	};
}

/** The highest position among `roles`; 0 (`@everyone`) with none, or only deleted ones. */
function highestOf(roles: readonly string[], rolePositions: ReadonlyMap<string, number>): number {
	let highest = 0;
	for (const role of roles) highest = Math.max(highest, rolePositions.get(role) ?? 0);
	return highest;
}
