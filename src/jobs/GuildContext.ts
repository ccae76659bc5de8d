import type { MemberRecord } from '../discord/MemberRecord.js';
import type { RequesterRank } from './RequesterRank.js';

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
	/**
	 * The roles that grant Administrator (the guild's id when `@everyone` does): a member holding
	 * one cannot be timed out, whatever the bots' rank (see {@link hasAdministrator}).
	 */
	readonly administratorRoleIds: ReadonlySet<string>;
	/**
	 * Who the job is for, bounded as Discord bounds them by hand (see {@link RequesterRank});
	 * absent for a count, which changes nothing, and bounded by the bots alone.
	 */
	readonly requester?: RequesterRank | undefined;
}

/** The guild as a job for `requester` sees it: the same roles and bots, bounded by their rank. */
export function forRequester(ctx: GuildContext, requester: RequesterRank): GuildContext {
	return { ...ctx, requester };
}

/**
 * Why a member cannot be edited itself (its profile in the guild, a timeout), or `undefined`:
 * Discord refuses the bots (`owner`, `hierarchy`), or the requester could not by hand
 * (`above-requester`).
 */
export type OutOfReach = 'owner' | 'hierarchy' | typeof ABOVE_REQUESTER;

/** The reason a member is out of the requester's reach, though not of the bots'. */
export const ABOVE_REQUESTER = 'above-requester';

/** The member's highest role position; 0 (`@everyone`) with no roles, or only unknown ones. */
export function highestPosition(member: MemberRecord, ctx: GuildContext): number {
	let highest = 0;
	for (const role of member.roles) highest = Math.max(highest, ctx.rolePositions.get(role) ?? 0);
	return highest;
}

/**
 * Why `member` itself cannot be edited for this job, or `undefined`. Discord refuses the owner
 * always, and anyone whose highest role is not strictly below the bot's (403, 50013). The same
 * rule binds the requester by hand, so a member ranked at or above them is out of their reach
 * even where the bots reach (the owner is above it; the operator has the bots' reach). A user
 * who is not a member (`nonMember`) has no rank: only the owner and the requester are out of reach.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function outOfReach(member: MemberRecord, ctx: GuildContext): OutOfReach | undefined {
	if (member.id === ctx.ownerId) return 'owner';
	// A user who is not a member has no roles for the hierarchy to rank; the requester is still not theirs to reach.
	if (member.nonMember) return ctx.requester?.kind === 'member' && ctx.requester.userId === member.id ? ABOVE_REQUESTER : undefined;
	const highest = highestPosition(member, ctx);
	if (highest >= ctx.workerHighestPosition) return 'hierarchy';
	if (ctx.requester?.kind === 'member' && highest >= ctx.requester.position) return ABOVE_REQUESTER;
	return undefined;
}

/** Whether a role of the member (or `@everyone`) grants Administrator: Discord refuses to time them out. */
export function hasAdministrator(member: MemberRecord, ctx: GuildContext): boolean {
	if (ctx.administratorRoleIds.size === 0) return false;
	return ctx.administratorRoleIds.has(ctx.guildId) || member.roles.some((role) => ctx.administratorRoleIds.has(role));
}

/** `@everyone` is never in a member's role list, but every member has it. */
export function hasRole(member: MemberRecord, roleId: string, ctx: GuildContext): boolean {
	return roleId === ctx.guildId || member.roles.includes(roleId);
}
