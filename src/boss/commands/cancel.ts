import { ApplicationCommandType, InteractionContextType, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { cancelJob, cancellingText } from '../status/cancelJob.js';
import type { BossCommand } from './BossCommand.js';

/**
 * `/cancel`: stops the running job within a few seconds; what was done stays journaled and the
 * same command continues it. It changes no member, so anyone who may run the commands may stop
 * a job. Members with Manage Nicknames see it.
 */
export const cancelCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'cancel',
		description: 'Stop the running job; what was done stays journaled',
		default_member_permissions: String(PermissionFlagsBits.ManageNicknames),
		contexts: [InteractionContextType.Guild],
	},
	async run(interaction, context) {
		const job = cancelJob(context);
		if (!job) {
			await interaction.reply({ content: 'No job is running.', flags: MessageFlags.Ephemeral });
			return;
		}
		await interaction.reply(cancellingText(job));
	},
};
