import { DiscordAPIError, type GuildMember, RESTJSONErrorCodes } from 'discord.js';
import type { RequesterNow } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { allowedFor, isAllowed } from '../isAllowed.js';
import { readRequesterRank } from '../readRequesterRank.js';

/** The requester now, and (still a member) whether they may do what needs any permission, for the job's admission. */
export interface RequesterRead {
	readonly now: RequesterNow;
	readonly may?: ((permission: bigint) => boolean) | undefined;
}

/**
 * The member `userId` as the guild has them now, read from Discord (not the cache, which holds no
 * members): their rank with the rules of a new command, and whether they may run a command that
 * needs `permission` (its permission in the guild, or a role or user the settings allow). Gone
 * (10007 Unknown Member) is `left`; any other failure is `unreadable`, with what Discord answered.
 *
 * @see https://discord.com/developers/docs/resources/guild#get-guild-member
 */
export async function readRequesterNow(context: BossContext, userId: string, permission: bigint): Promise<RequesterRead> {
	const guild = context.boss.guild;
	let member: GuildMember;
	try {
		member = await guild.members.fetch({ user: userId, force: true });
	} catch (error) {
		if (error instanceof DiscordAPIError && (error.code === RESTJSONErrorCodes.UnknownMember || error.code === RESTJSONErrorCodes.UnknownUser))
			return { now: { kind: 'left' } };
		return { now: { kind: 'unreadable', error: (error as Error).message } };
	}
	const asked = { user: member.user, member, memberPermissions: member.permissions };
	return {
		now: {
			kind: 'member',
			tag: member.user.tag,
			rank: readRequesterRank({ user: member.user, member }, guild),
			allowed: isAllowed(asked, context.config.permissions, permission),
		},
		may: allowedFor(asked, context.config.permissions),
	};
}
