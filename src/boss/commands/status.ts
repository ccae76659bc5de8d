import { ApplicationCommandType, type ChatInputCommandInteraction, InteractionContextType, MessageFlags } from 'discord.js';
import type { BossContext } from '../BossContext.js';
import { countTargetOf, showFleetStatus } from '../fleet/fleetStatus.js';
import { requesterOf } from '../requesterOf.js';
import { renderJobMessage } from '../status/renderJob.js';
import { showLive } from '../status/showLive.js';
import { showLockdown } from '../status/showLockdown.js';
import { showRules } from '../status/showRules.js';
import { showStoppedRules } from '../status/showStoppedRules.js';
import type { BossCommand } from './BossCommand.js';
import { fleetHint } from './fleetHint.js';

/**
 * `/status`: the running job's live status, or the last one's report, or, after a crash, the
 * unfinished job counted from the live guild (and why a restart did not resume it); a fleet's job
 * when the workers run elsewhere. Then the standing rules, when the server is locked down
 * (`/lockdown`) until when, and the rules that stopped lately and why.
 * Reads only. Anyone who may run a job may run it (see `maySeeJobs`).
 */
export const statusCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'status',
		description: 'Show the running job with a message that updates itself',
		contexts: [InteractionContextType.Guild],
	},
	async run(interaction, context) {
		await showJobStatus(interaction, context);
		await showRules(interaction, context);
		await showLockdown(interaction, context);
		await showStoppedRules(interaction, context);
	},
};

/** The job part of /status: the running job, the last one's report, or what a crash left. */
async function showJobStatus(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void> {
	const job = context.jobs.current ?? context.jobs.last;
	if (job && !job.result) {
		await interaction.reply({ content: 'Live status of the running job:', flags: MessageFlags.Ephemeral });
		await showLive(interaction, context, job);
		return;
	}
	// Workers in other processes: the fleet's journals say what runs, the live guild how far.
	if (await context.fleet.scope.elsewhere(() => showFleetStatus(interaction, context))) return;
	if (job) {
		await interaction.reply(renderJobMessage(job));
		return;
	}
	// Reading the journals touches the disk: acknowledge first (Discord allows 3 s).
	await interaction.deferReply();
	const interrupted = await context.jobs.interrupted();
	if (!interrupted || !context.jobs.actionOf(interrupted.header)) {
		await interaction.editReply(`No job has run since the bot started, and no journal shows an unfinished one.${fleetHint(context)}`);
		return;
	}
	const { notResumed } = await context.notes.read(interrupted.header.jobId);
	const why = notResumed ? ` ⏸️ Not resumed after the restart at ${notResumed.at}: ${notResumed.reason}. ${notResumed.next}` : '';
	await interaction.editReply(
		`The last job (**${interrupted.header.title}**, started by ${interrupted.header.startedBy.tag} at ${interrupted.header.startedAt}) did not finish. Counting what is left from the live server; run it again with the same target to finish it.${why}`,
	);
	const { action, filters } = countTargetOf(interrupted.header, context);
	await showLive(interaction, context, context.jobs.count(action, requesterOf(interaction), filters));
}
