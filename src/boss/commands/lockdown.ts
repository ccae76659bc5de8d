import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	type ChatInputCommandInteraction,
	escapeMarkdown,
	InteractionContextType,
	PermissionFlagsBits,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { expandAuditLogReason } from '../../config/index.js';
import {
	bossLacksManageGuild,
	checkLockdownHours,
	describeLockdown,
	discordTime,
	LOCKDOWN_DEFAULT_HOURS,
	LOCKDOWN_MAX_HOURS,
	liftLockdown,
	startLockdown,
} from '../../lockdown/index.js';
import type { BossContext } from '../BossContext.js';
import type { BossCommand } from './BossCommand.js';

const data = {
	type: ApplicationCommandType.ChatInput,
	name: 'lockdown',
	description: 'Pause invites (and DMs) in a raid, or open them again',
	default_member_permissions: String(PermissionFlagsBits.ManageGuild),
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: ApplicationCommandOptionType.Subcommand,
			name: 'on',
			description: `Pause invites for some hours (at most ${LOCKDOWN_MAX_HOURS}, as Discord allows)`,
			options: [
				{
					type: ApplicationCommandOptionType.Integer,
					name: 'hours',
					description: `How long, 1 to ${LOCKDOWN_MAX_HOURS} (default ${LOCKDOWN_DEFAULT_HOURS}); /lockdown off opens sooner`,
					min_value: 1,
					max_value: LOCKDOWN_MAX_HOURS,
				},
				{
					type: ApplicationCommandOptionType.Boolean,
					name: 'dms',
					description: 'Pause DMs between members too (false opens them); left out, DMs stay as they are',
				},
			],
		},
		{ type: ApplicationCommandOptionType.Subcommand, name: 'off', description: 'Open invites and DMs again now' },
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/**
 * `/lockdown on [hours] [dms]` and `/lockdown off`: the first thing a moderator does in a raid,
 * through Discord's incident actions (invites, optionally DMs between members, paused for at most
 * 24 hours). Two subcommands, as `/massrole add|remove`, rather than an `off` option: each shows
 * only the options it takes, and neither can be read as the other. Not a mass action: the boss
 * sends one request, with its own token, so it is the boss that needs Manage Guild. Members with
 * Manage Guild see it, as Discord asks of anyone for the route; the answer is posted in the
 * channel, naming who did it, so the other moderators see the server is locked.
 */
export const lockdownCommand: BossCommand = {
	data,
	async run(interaction, context) {
		const on = interaction.options.getSubcommand() === 'on';
		const hours = on ? checkLockdownHours(interaction.options.getInteger('hours') ?? LOCKDOWN_DEFAULT_HOURS, 'hours:') : 0;
		// Discord would refuse the request: say why here, before anything is sent.
		if (context.boss.guild.members.me?.permissions.has(PermissionFlagsBits.ManageGuild) !== true) throw bossLacksManageGuild();
		const rest = context.boss.client.rest;
		const reason = reasonOf(interaction, context, on ? 'lockdown' : 'lockdown off');
		const who = escapeMarkdown(interaction.user.tag);
		await interaction.deferReply();
		if (on) {
			const dms = interaction.options.getBoolean('dms') ?? undefined;
			const lockdown = await startLockdown(rest, context.config.guildId, { hours, dms, reason });
			context.logger.info({ user: interaction.user.id, hours, dms }, 'lockdown on');
			await interaction.editReply(`🔒 **Lockdown** by ${who}: ${describeLockdown(lockdown, discordTime)}. \`/lockdown off\` opens them sooner.`);
			return;
		}
		const lockdown = await liftLockdown(rest, context.config.guildId, reason);
		context.logger.info({ user: interaction.user.id }, 'lockdown off');
		await interaction.editReply(`🔓 **Lockdown lifted** by ${who}: ${describeLockdown(lockdown, discordTime)}.`);
	},
};

/** The audit-log reason of the operator's template, naming who asked. */
function reasonOf(interaction: ChatInputCommandInteraction, context: BossContext, kind: string): string {
	return expandAuditLogReason(context.config.auditLogReason, { jobKind: kind, user: interaction.user.tag, userId: interaction.user.id, jobId: 'none' });
}
