import type { APIGuildMember } from 'discord.js';
import type { MemberRecord } from './MemberRecord.js';

/**
 * Keeps what the planner needs of a member and drops the rest of Discord's JSON at once, so a
 * page of 1000 members costs a few kilobytes after it is split, not a page of full objects.
 */
export function toMemberRecord(member: Pick<APIGuildMember, 'user' | 'nick' | 'roles' | 'joined_at' | 'communication_disabled_until'>): MemberRecord {
	const user = member.user;
	return {
		id: user.id,
		username: user.username,
		globalName: user.global_name ?? null,
		nick: member.nick ?? null,
		roles: member.roles,
		bot: user.bot === true,
		joinedAt: member.joined_at ? Date.parse(member.joined_at) : null,
		communicationDisabledUntil: member.communication_disabled_until ? Date.parse(member.communication_disabled_until) : null,
	};
}
