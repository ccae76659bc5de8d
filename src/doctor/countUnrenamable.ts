import type { APIRole } from 'discord.js';
import type { GuildFacts } from './GuildFacts.js';
import { compareRoles } from './highestRole.js';

/** The members a bot cannot rename because of where its highest role sits. */
export interface Unrenamable {
	/** At most this many: a member holding two such roles is counted under both. */
	readonly atMost: number;
	/** At least this many: the largest single group. Equal to `atMost` when it is exact. */
	readonly atLeast: number;
	/** The roles at or above the bot's highest, highest first, with their members (our bots left out). */
	readonly roles: ReadonlyArray<{ readonly role: APIRole; readonly members: number }>;
	/** Whether the owner, who holds none of those roles, is counted on their own. */
	readonly owner: boolean;
}

/**
 * Counts, without listing anyone, the members a bot whose highest role is `bound` cannot
 * rename: everyone holding a role at or above it, and the owner (Discord lets no bot rename the
 * owner). Our own bots are left out: jobs never rename them. Counts come from
 * `GET /guilds/{id}/roles/member-counts`, so a member with two such roles is counted twice;
 * hence a range.
 *
 * @param ourBots the roles of each of our bots that is in the guild
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function countUnrenamable(bound: APIRole, guild: GuildFacts, ourBots: ReadonlyArray<readonly string[]>): Unrenamable {
	if (bound.id === guild.id) {
		// A bot whose highest role is @everyone outranks nobody.
		const everyone = Math.max(0, guild.memberCount - ourBots.length);
		return { atMost: everyone, atLeast: everyone, roles: [], owner: false };
	}
	const above = guild.roles
		.filter((role) => role.id !== guild.id && compareRoles(role, bound) >= 0)
		.sort((a, b) => compareRoles(b, a))
		.map((role) => ({
			role,
			members: Math.max(0, (guild.roleMemberCounts[role.id] ?? 0) - ourBots.filter((roles) => roles.includes(role.id)).length),
		}));
	const owner = !above.some(({ role }) => guild.ownerRoles.includes(role.id));
	const extra = owner ? 1 : 0;
	const sum = above.reduce((total, { members }) => total + members, 0);
	const largest = above.reduce((most, { members }) => Math.max(most, members), 0);
	return { atMost: sum + extra, atLeast: largest + extra, roles: above, owner };
}
