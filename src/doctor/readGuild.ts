import {
	ChannelType,
	Routes,
	type APIGuildChannel,
	type REST,
	type RESTGetAPIGuildChannelsResult,
	type RESTGetAPIGuildMemberResult,
	type RESTGetAPIGuildResult,
	type RESTGetAPIGuildRoleMemberCountsResult,
} from 'discord.js';
import type { GuildFacts } from './GuildFacts.js';

type TextChannel = APIGuildChannel<ChannelType.GuildText | ChannelType.GuildAnnouncement>;

/**
 * Reads the guild once, with the token of a bot that is in it: its roles, how many members hold
 * each (`GET /guilds/{id}/roles/member-counts`, so nothing lists a million members), the owner's
 * roles, and the channels the live status could go to. Throws Discord's error as it comes.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#get-guild-role-member-counts}
 */
export async function readGuild(rest: REST, guildId: string): Promise<GuildFacts> {
	const guild = (await rest.get(Routes.guild(guildId), { query: new URLSearchParams({ with_counts: 'true' }) })) as RESTGetAPIGuildResult;
	const [roleMemberCounts, channels, owner] = await Promise.all([
		rest.get(Routes.guildRoleMemberCounts(guildId)) as Promise<RESTGetAPIGuildRoleMemberCountsResult>,
		rest.get(Routes.guildChannels(guildId)) as Promise<RESTGetAPIGuildChannelsResult>,
		// The owner is never renamed whatever their roles; their roles only avoid counting them twice.
		(rest.get(Routes.guildMember(guildId, guild.owner_id)) as Promise<RESTGetAPIGuildMemberResult>).catch(() => null),
	]);
	return {
		id: guild.id,
		name: guild.name,
		ownerId: guild.owner_id,
		ownerRoles: owner?.roles ?? [],
		memberCount: guild.approximate_member_count ?? 0,
		roles: guild.roles,
		roleMemberCounts,
		channels: channels.filter((channel): channel is TextChannel => channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement),
	};
}
