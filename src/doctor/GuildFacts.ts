import type { APIGuildChannel, APIRole, ChannelType } from 'discord.js';

/** What the doctor read about the guild, once, with the token of a bot that is in it. */
export interface GuildFacts {
	readonly id: string;
	readonly name: string;
	readonly ownerId: string;
	/** The owner's roles (empty when they could not be read). */
	readonly ownerRoles: readonly string[];
	/** `approximate_member_count`, bots included. */
	readonly memberCount: number;
	/** Every role, `@everyone` (id = guild id) included. */
	readonly roles: readonly APIRole[];
	/** `GET /guilds/{id}/roles/member-counts`: members per role, `@everyone` excluded. */
	readonly roleMemberCounts: Readonly<Record<string, number>>;
	/** The text and announcement channels, with their permission overwrites. */
	readonly channels: readonly APIGuildChannel<ChannelType.GuildText | ChannelType.GuildAnnouncement>[];
}
