import {
	type ChatInputCommandInteraction,
	ApplicationCommandOptionType,
	ApplicationCommandType,
	escapeMarkdown,
	InteractionContextType,
	MessageFlags,
} from 'discord.js';
import { cancelJob, cancellingText, jobPermission } from '../status/cancelJob.js';
import type { BossContext } from '../BossContext.js';
import { isAllowed, notAllowedText } from '../isAllowed.js';
import type { BossCommand } from './BossCommand.js';

/** The option that names a standing rule to end. */
const RULE_OPTION = 'rule';

/**
 * `/cancel`: stops the running job within a few seconds; what was done stays journaled and the
 * same command continues it. With no job running, it closes the job a restart interrupted
 * instead, so no later start resumes it. Anyone who may run a job may run it (see `maySeeJobs`),
 * but stopping or closing a job asks for that job's permission (see `jobPermission`): a renamer
 * cannot stop a raid's bans. `rule:` ends a standing rule instead, by its id or its title.
 */
export const cancelCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'cancel',
		description: 'Stop the running job (or a standing rule); what was done stays journaled',
		contexts: [InteractionContextType.Guild],
		options: [
			{
				type: ApplicationCommandOptionType.String,
				name: RULE_OPTION,
				description: 'End this standing rule instead: its id or its title (/status lists them)',
				required: false,
				max_length: 100,
			},
		],
	},
	async run(interaction, context) {
		const which = interaction.options.getString(RULE_OPTION);
		if (which !== null) {
			await endRule(interaction, context, which);
			return;
		}
		const running = context.jobs.current;
		if (running && !running.result && !isAllowed(interaction, context.config.permissions, jobPermission(running))) {
			await interaction.reply({
				content: notAllowedText(`stop **${escapeMarkdown(running.title)}**`, jobPermission(running)),
				flags: MessageFlags.Ephemeral,
			});
			return;
		}
		const job = cancelJob(context);
		if (job) {
			await interaction.reply(cancellingText(job));
			return;
		}
		const rules = context.jobs.rules.all;
		// Only a process holding every worker resumes jobs, and so has one to close.
		if (context.fleet.scope.whyNoResume() !== undefined || rules.length > 0) {
			const listed = rules.map((rule) => `**${escapeMarkdown(rule.title)}** (\`${rule.id}\`)`).join(', ');
			const content = rules.length > 0 ? `No job is running. Standing rules: ${listed}; \`/cancel rule:<id>\` ends one.` : 'No job is running.';
			await interaction.reply({ content, flags: MessageFlags.Ephemeral });
			return;
		}
		// Reading and marking the journal touches the disk: acknowledge first (Discord allows 3 s).
		await interaction.deferReply();
		await closeInterrupted(interaction, context);
	},
};

/** Ends the standing rule `which` names, if the member may stop it (the rule's permission), and tells them. */
async function endRule(interaction: ChatInputCommandInteraction, context: BossContext, which: string): Promise<void> {
	const rule = context.jobs.rules.find(which);
	if (!isAllowed(interaction, context.config.permissions, jobPermission(rule))) {
		await interaction.reply({ content: notAllowedText(`end **${escapeMarkdown(rule.title)}**`, jobPermission(rule)), flags: MessageFlags.Ephemeral });
		return;
	}
	rule.cancel();
	void context.boss.liveStatus?.refresh();
	await interaction.reply(
		`Ending the standing rule **${escapeMarkdown(rule.title)}** (\`${rule.id}\`): nobody who joins from now on is changed by it. What it did stays journaled; /restore undoes it.`,
	);
}

/** Closes the interrupted job, if there is one and the member may stop it, and tells them. */
async function closeInterrupted(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void> {
	const interrupted = await context.jobs.interrupted();
	const permission = interrupted && context.jobs.actionOf(interrupted.header)?.permission;
	if (permission !== undefined && !isAllowed(interaction, context.config.permissions, permission)) {
		// Said privately, as every refusal is: the acknowledgement was public.
		await interaction.deleteReply();
		await interaction.followUp({ content: notAllowedText('close the interrupted job', permission), flags: MessageFlags.Ephemeral });
		return;
	}
	await interaction.editReply(await closeText(context));
}

/** Closes the interrupted job, if there is one; what the member is told. */
async function closeText(context: BossContext): Promise<string> {
	const closed = await context.jobs.closeInterrupted();
	if (!closed) return 'No job is running, and none is waiting to be resumed.';
	const { header } = closed;
	return `No job is running. The interrupted **${escapeMarkdown(header.title)}** (started by ${escapeMarkdown(header.startedBy.tag)} at ${header.startedAt}) is closed: no restart resumes it. What it did stays journaled; running it again continues it, /restore undoes it.`;
}
