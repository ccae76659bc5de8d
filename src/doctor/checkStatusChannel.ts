import { OverwriteType, PermissionFlagsBits, type APIOverwrite, type PermissionsBitField } from 'discord.js';
import { BOSS_CHANNEL_PERMISSIONS } from '../discord/requiredPermissions.js';
import { ErrorCodes } from '../errors.js';
import { channelPermissions } from './channelPermissions.js';
import type { Finding } from './Finding.js';
import type { GuildFacts } from './GuildFacts.js';
import { listInWords, permissionNames } from '../discord/permissionNames.js';

type Channel = GuildFacts['channels'][number];

export interface StatusChannelCheck {
	/** The report's cell: `#general: ok`, `#general: no Send Messages`, `2 of 3 channels ok`. */
	readonly cell: string;
	/** Findings about the boss, worded to follow `boss: `. */
	readonly findings: Finding[];
}

/** The boss as the channel check needs it. */
export interface StatusChannelBoss {
	readonly userId: string;
	/** Its application's name, which is also how its member overwrite shows in Discord. */
	readonly name: string;
	readonly roleIds: readonly string[];
	/** Its guild-level permissions. */
	readonly permissions: PermissionsBitField;
	/** Its highest role's name. */
	readonly roleName: string;
}

/**
 * Whether the boss can post (and later edit) the live status message: View Channel, Send
 * Messages and Embed Links in the channel, after its overwrites. With `channelId` that channel
 * alone is checked; without, every text channel, and it is fatal only when none will do. The
 * fix names what takes the permission away: a role's permission in Server Settings, or the
 * channel overwrite that denies it.
 */
export function checkStatusChannel(boss: StatusChannelBoss, guild: GuildFacts, channelId: string | undefined): StatusChannelCheck {
	const missingIn = (channel: Channel): bigint => {
		const inChannel = channelPermissions(boss.permissions, { id: boss.userId, roleIds: boss.roleIds }, guild.id, channel.permission_overwrites ?? []);
		// Without View Channel the channel does not exist for the bot: everything is missing.
		if (!inChannel.has(PermissionFlagsBits.ViewChannel)) return BOSS_CHANNEL_PERMISSIONS;
		return BOSS_CHANNEL_PERMISSIONS & ~inChannel.bitfield;
	};
	const fixFor = (channel: Channel, missing: bigint): string => {
		const words = listInWords(permissionNames(missing));
		const denying = (channel.permission_overwrites ?? []).filter((overwrite) => appliesToBoss(overwrite) && (BigInt(overwrite.deny) & missing) !== 0n);
		if (denying.length > 0)
			return `#${channel.name} → Edit Channel → Permissions → ${listInWords(denying.map(overwriteName))}: allow ${words} (or remove the overwrite)`;
		const atGuildLevel = boss.permissions.missing(BOSS_CHANNEL_PERMISSIONS);
		if (atGuildLevel.length > 0)
			return `Server Settings → Roles → ${boss.roleName}: allow ${listInWords(permissionNames(atGuildLevel))} (or re-invite the boss with its link below)`;
		return `#${channel.name} → Edit Channel → Permissions → ${boss.name}: allow ${words}`;
	};
	const appliesToBoss = (overwrite: APIOverwrite): boolean =>
		overwrite.type === OverwriteType.Member ? overwrite.id === boss.userId : overwrite.id === guild.id || boss.roleIds.includes(overwrite.id);
	const overwriteName = (overwrite: APIOverwrite): string =>
		overwrite.type === OverwriteType.Member ? boss.name : (guild.roles.find((role) => role.id === overwrite.id)?.name ?? overwrite.id);
	const blockedIn = (channel: Channel, missing: bigint): Finding => ({
		code: ErrorCodes.StatusChannelNotWritable,
		severity: 'fatal',
		bot: 'boss',
		message: `it cannot post its live status in #${channel.name}: it lacks ${listInWords(permissionNames(missing))} there.`,
		fix: fixFor(channel, missing),
		context: { channelId: channel.id, missing: permissionNames(missing) },
	});

	if (channelId !== undefined) {
		const channel = guild.channels.find((candidate) => candidate.id === channelId);
		if (!channel) {
			return {
				cell: `channel ${channelId}: not found`,
				findings: [
					{
						code: ErrorCodes.StatusChannelNotWritable,
						severity: 'fatal',
						bot: 'boss',
						message: `channel ${channelId} is not a text channel of ${guild.name}.`,
						fix: 'pass --channel the id of a text channel in that server (right-click the channel → Copy Channel ID)',
						context: { channelId, guildId: guild.id },
					},
				],
			};
		}
		const missing = missingIn(channel);
		if (missing === 0n) return { cell: `#${channel.name}: ok`, findings: [] };
		return { cell: `#${channel.name}: no ${listInWords(permissionNames(missing))}`, findings: [blockedIn(channel, missing)] };
	}

	const checked = guild.channels.map((channel) => ({ channel, missing: missingIn(channel) }));
	const writable = checked.filter(({ missing }) => missing === 0n);
	const blocked = checked.filter(({ missing }) => missing !== 0n);
	const names = (list: typeof checked): string =>
		listInWords(list.slice(0, 5).map(({ channel }) => `#${channel.name}`)) + (list.length > 5 ? ` and ${list.length - 5} more` : '');
	if (checked.length === 0) {
		return {
			cell: 'no text channel',
			findings: [
				{
					code: ErrorCodes.StatusChannelNotWritable,
					severity: 'fatal',
					bot: 'boss',
					message: `${guild.name} has no text channel for the live status.`,
					fix: 'create a text channel for massnick, then run the doctor again',
					context: {},
				},
			],
		};
	}
	if (checked.length === 1) {
		const [{ channel, missing }] = checked as [(typeof checked)[number]];
		return missing === 0n
			? { cell: `#${channel.name}: ok`, findings: [] }
			: { cell: `#${channel.name}: no ${listInWords(permissionNames(missing))}`, findings: [blockedIn(channel, missing)] };
	}
	if (writable.length === 0) {
		const { channel, missing } = blocked[0]!;
		return {
			cell: `none of ${checked.length} channels`,
			findings: [
				{
					...blockedIn(channel, missing),
					message: `it can post its live status in none of the ${checked.length} text channels (in #${channel.name} it lacks ${listInWords(permissionNames(missing))}).`,
					context: { blocked: blocked.map((entry) => entry.channel.id) },
				},
			],
		};
	}
	const cell = `${writable.length} of ${checked.length} channels ok`;
	if (blocked.length === 0) return { cell, findings: [] };
	const first = blocked[0]!;
	return {
		cell,
		findings: [
			{
				code: ErrorCodes.StatusChannelNotWritable,
				severity: 'warning',
				bot: 'boss',
				message: `it cannot post its live status in ${names(blocked)}: run massnick's commands in ${names(writable)}.`,
				fix: `pass --channel <id> to check the channel you will use; for #${first.channel.name}: ${fixFor(first.channel, first.missing)}`,
				context: { writable: writable.map(({ channel }) => channel.id), blocked: blocked.map(({ channel }) => channel.id) },
			},
		],
	};
}
