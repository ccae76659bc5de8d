import { DiscordAPIError, type GuildMember, RESTJSONErrorCodes } from 'discord.js';
import type { BossContext } from '../BossContext.js';
import { allowedFor, isAllowed } from '../isAllowed.js';
import { readRequesterRank } from '../readRequesterRank.js';
import type { RequesterNow } from './whyNotResumed.js';

/**
 * The member `userId` as the guild has them now, read from Discord (not the cache, which holds no
 * members): their rank with the rules of a new command, and whether they may run a command that
 * needs `permission` (its permission in the guild, or a role or user the settings allow).
 *
 * @see https://discord.com/developers/docs/resources/guild#get-guild-member
 * @throws what Discord answered, but 10007 Unknown Member (they left: `{ left: true }`).
 */
export async function readRequesterNow(context: BossContext, userId: string, permission: bigint): Promise<RequesterNow> {
	const guild = context.boss.guild;
	let member: GuildMember;
	try {
		member = await guild.members.fetch({ user: userId, force: true });
	} catch (error) {
		if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser))
			return { left: true };
		throw error;
	}
	return {
		left: false,
		tag: member.user.tag,
		rank: readRequesterRank({ user: member.user, member }, guild),
		allowed: isAllowed({ user: member.user, member, memberPermissions: member.permissions }, context.config.permissions, permission),
		may: allowedFor({ user: member.user, member, memberPermissions: member.permissions }, context.config.permissions),
	};
}
