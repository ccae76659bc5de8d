import { ApplicationCommandType, escapeMarkdown, InteractionContextType, MessageFlags, PermissionFlagsBits } from 'discord.js';
import { cancelJob, cancellingText } from '../status/cancelJob.js';
import type { BossContext } from '../BossContext.js';
import type { BossCommand } from './BossCommand.js';

/**
 * `/cancel`: stops the running job within a few seconds; what was done stays journaled and the
 * same command continues it. With no job running, it closes the job a restart interrupted
 * instead, so no later start resumes it. It changes no member, so anyone who may run the
 * commands may stop a job. Members with Manage Nicknames see it.
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
		if (job) {
			await interaction.reply(cancellingText(job));
			return;
		}
		// Only a process holding every worker resumes jobs, and so has one to close.
		if (context.fleet.scope.whyNoResume() !== undefined) {
			await interaction.reply({ content: 'No job is running.', flags: MessageFlags.Ephemeral });
			return;
		}
		// Reading and marking the journal touches the disk: acknowledge first (Discord allows 3 s).
		await interaction.deferReply();
		await interaction.editReply(await closeInterrupted(context));
	},
};

/** Closes the interrupted job, if there is one; what the member is told. */
async function closeInterrupted(context: BossContext): Promise<string> {
	const closed = await context.jobs.closeInterrupted();
	if (!closed) return 'No job is running, and none is waiting to be resumed.';
	const { header } = closed;
	return `No job is running. The interrupted **${escapeMarkdown(header.title)}** (started by ${escapeMarkdown(header.startedBy.tag)} at ${header.startedAt}) is closed: no restart resumes it. What it did stays journaled; running it again continues it, /restore undoes it.`;
}
