import type { Guild, GuildMember } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';

/** The most listed ids a preview looks up: ten gateway requests of 100. */
export const LOOKUP_LIMIT = 1_000;
/** Discord answers at most 100 `user_ids` a Request Guild Members. */
const IDS_PER_REQUEST = 100;
/** The longest one lookup may take before the preview does without it. */
const LOOKUP_TIMEOUT_MS = 10_000;

/** The first ids of a list, looked up: those that are members, as the planner reads them. */
export interface ListedLookup {
	/** How many of the list's ids were looked up (the first {@link LOOKUP_LIMIT}). */
	readonly looked: number;
	readonly members: readonly MemberRecord[];
}

/**
 * Looks the first {@link LOOKUP_LIMIT} ids of a job's list up through the gateway (Request Guild
 * Members with `user_ids`, 100 a request, which Discord answers with the members and the ids it
 * did not find), so the preview of a job limited to a file of ids plans real listed members and
 * says how many of them are not members, without listing the guild. The 2025 limit of one
 * request per 30 s applies to requests for the whole member list only, not to these.
 *
 * @see https://discord.com/developers/docs/events/gateway-events#request-guild-members
 * @throws what discord.js throws when the gateway does not answer in time
 */
export async function lookUpListed(guild: Guild, ids: readonly string[]): Promise<ListedLookup> {
	const looked = ids.slice(0, LOOKUP_LIMIT);
	const members: MemberRecord[] = [];
	for (let start = 0; start < looked.length; start += IDS_PER_REQUEST) {
		const found = await guild.members.fetch({ user: looked.slice(start, start + IDS_PER_REQUEST), time: LOOKUP_TIMEOUT_MS });
		for (const member of found.values()) members.push(recordOf(member, guild.id));
	}
	return { looked: looked.length, members };
}

/** A member as the planner reads it, from discord.js's object (the listing reads Discord's JSON instead). */
function recordOf(member: GuildMember, guildId: string): MemberRecord {
	return {
		id: member.id,
		username: member.user.username,
		globalName: member.user.globalName,
		nick: member.nickname,
		roles: [...member.roles.cache.keys()].filter((id) => id !== guildId),
		bot: member.user.bot,
		joinedAt: member.joinedTimestamp,
	};
}
