import { ApplicationFlags, ChannelType, PermissionFlagsBits, type APIOverwrite, type APIRole, type RoleFlags } from 'discord.js';
import type { BotFacts } from '../../../src/doctor/BotFacts.js';
import type { GuildFacts } from '../../../src/doctor/GuildFacts.js';

/** Hand-made facts for the doctor's pure parts: a small guild with a role ladder and our bots. */
export const GUILD_ID = '200000000000000000';
export const OWNER_ID = '200000000000000099';
export const CHANNEL_ID = '200000000000000050';
export const BOSS_ID = '300000000000000000';
export const WORKER_IDS = ['300000000000000001', '300000000000000002'] as const;

function role(id: string, name: string, position: number, permissions: bigint): APIRole {
	return {
		id,
		name,
		position,
		permissions: permissions.toString(),
		color: 0,
		colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
		hoist: false,
		icon: null,
		unicode_emoji: null,
		managed: false,
		mentionable: false,
		flags: 0 as RoleFlags,
	};
}

/** A role an integration manages: a bot's (`{ bot_id }`) or a Twitch or YouTube one (`{ integration_id }`). */
export function managedRole(id: string, name: string, position: number, tags: APIRole['tags']): APIRole {
	return { ...role(id, name, position, 0n), managed: true, ...(tags ? { tags } : {}) };
}

export const ROLES = {
	everyone: role(GUILD_ID, '@everyone', 0, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks),
	member: role('200000000000000001', 'Member', 1, 0n),
	massnick: role('200000000000000002', 'Massnick', 2, PermissionFlagsBits.ManageNicknames),
	moderator: role('200000000000000003', 'Moderator', 3, PermissionFlagsBits.ManageMessages),
	admin: role('200000000000000004', 'Admin', 4, PermissionFlagsBits.Administrator),
} as const;

export function guildFacts(changes: Partial<GuildFacts> = {}, overwrites: APIOverwrite[] = []): GuildFacts {
	return {
		id: GUILD_ID,
		name: 'Test Guild',
		ownerId: OWNER_ID,
		ownerRoles: [],
		memberCount: 103,
		roles: Object.values(ROLES),
		// 3 bots hold Massnick; 5 moderators, 2 admins (one of them also a moderator).
		roleMemberCounts: { [ROLES.member.id]: 90, [ROLES.massnick.id]: 3, [ROLES.moderator.id]: 5, [ROLES.admin.id]: 2 },
		channels: [{ id: CHANNEL_ID, name: 'general', type: ChannelType.GuildText, permission_overwrites: overwrites }],
		...changes,
	};
}

export function bossFacts(changes: Partial<BotFacts> = {}): BotFacts {
	return {
		label: 'boss',
		role: 'boss',
		tokenSetting: 'BOSS_TOKEN',
		token: 'accepted',
		application: { id: BOSS_ID, name: 'Boss App', flags: ApplicationFlags.GatewayGuildMembersLimited, botUserId: BOSS_ID },
		memberRoles: [ROLES.massnick.id],
		commands: 'allowed',
		...changes,
	};
}

export function workerFacts(index: number, changes: Partial<BotFacts> = {}): BotFacts {
	const id = WORKER_IDS[index]!;
	return {
		label: `worker ${index}`,
		role: 'worker',
		tokenSetting: `WORKER_TOKENS (token ${index + 1} in the list)`,
		token: 'accepted',
		application: { id, name: `Worker App ${index}`, flags: 0, botUserId: id },
		memberRoles: [ROLES.massnick.id],
		...changes,
	};
}
