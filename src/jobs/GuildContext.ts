import type { MemberRecord } from '../discord/MemberRecord.js';

/** The guild as a job's planner sees it; built once per job from the boss's cache. */
export interface GuildContext {
	readonly guildId: string;
	readonly ownerId: string;
	/** Role id → position. `@everyone` has the guild's id and position 0. */
	readonly rolePositions: ReadonlyMap<string, number>;
	/** The boss and the workers: never changed, whatever the job. */
	readonly botUserIds: ReadonlySet<string>;
	/**
	 * The lowest of the workers' highest role positions. A worker can only edit members (and hand
	 * out roles) below its own highest role; using the lowest keeps a member's plan the same
	 * whichever worker owns them.
	 */
	readonly workerHighestPosition: number;
}

/** Why Discord refuses a bot editing a member itself (its profile in the guild, a timeout), or `undefined`. */
export type OutOfReach = 'owner' | 'hierarchy';

/** The member's highest role position; 0 (`@everyone`) with no roles, or only unknown ones. */
export function highestPosition(member: MemberRecord, ctx: GuildContext): number {
	let highest = 0;
	for (const role of member.roles) highest = Math.max(highest, ctx.rolePositions.get(role) ?? 0);
	return highest;
}

/**
 * Why the workers cannot edit `member` itself, or `undefined`. Discord refuses the owner always,
 * and anyone whose highest role is not strictly below the bot's (403, 50013).
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function outOfReach(member: MemberRecord, ctx: GuildContext): OutOfReach | undefined {
	if (member.id === ctx.ownerId) return 'owner';
	if (highestPosition(member, ctx) >= ctx.workerHighestPosition) return 'hierarchy';
	return undefined;
}

/** `@everyone` is never in a member's role list, but every member has it. */
export function hasRole(member: MemberRecord, roleId: string, ctx: GuildContext): boolean {
	return roleId === ctx.guildId || member.roles.includes(roleId);
}
