import { type ButtonInteraction, MessageFlags } from 'discord.js';
import type { Job } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { cancelJob, cancellingText, jobPermission, undoWords } from './cancelJob.js';
import type { CustomIdArgs, StatusButton } from '../customIds.js';
import { isAllowed, notAllowedText } from '../isAllowed.js';
import { jobKey } from '../jobKey.js';
import { renderJobMessage } from './renderJob.js';
import { confirmCancelButtons } from './statusButtons.js';

type StatusPress = (interaction: ButtonInteraction, job: Job, args: CustomIdArgs['status'], context: BossContext) => Promise<void>;

/**
 * The live status message's buttons, and the private confirmation of its Cancel. Each is for
 * members allowed to run the job (see `jobPermission`), refused privately to anyone else.
 */
const presses: Record<StatusButton, StatusPress> = {
	/** Shows the status as it is now, in place. */
	async refresh(interaction, job) {
		await interaction.update({ ...renderJobMessage(job), ...(job.result ? { components: [] } : {}) });
	},

	/** Asks first, privately: one button that only this member sees and may press. */
	async cancel(interaction, job, _args, context) {
		if (job.result || (job !== context.jobs.current && !context.jobs.rules.all.includes(job))) {
			await interaction.reply({ content: `**${job.title}** is not running any more: there is nothing to cancel.`, flags: MessageFlags.Ephemeral });
			return;
		}
		await interaction.reply({
			content: `Cancel **${job.title}**? No new request goes out once you confirm. What was done stays journaled; running it again continues it, ${undoWords(job)}.`,
			components: [confirmCancelButtons(jobKey(job), interaction.user.id)],
			flags: MessageFlags.Ephemeral,
		});
	},

	/** Stops the job as /cancel does, if it is still the one running. */
	async confirm(interaction, job, { userId }, context) {
		if (userId !== interaction.user.id) {
			await interaction.reply({ content: 'This confirmation belongs to the member who pressed Cancel; nothing was cancelled.', flags: MessageFlags.Ephemeral });
			return;
		}
		const cancelled = cancelJob(context, job);
		await interaction.update({ content: cancelled ? cancellingText(cancelled) : `**${job.title}** had already ended; nothing was cancelled.`, components: [] });
	},
};

/** Routes a status button to its press, once the job is found and the member is allowed. */
export async function pressStatus(interaction: ButtonInteraction, args: CustomIdArgs['status'], context: BossContext): Promise<void> {
	const job = findJob(context, args.jobKey);
	if (!job) {
		// A job from before a restart: nothing on this message can act any more.
		await interaction.update({ components: [] });
		await interaction.followUp({
			content: 'massnick no longer tracks this job (it restarted since); /status shows what runs now.',
			flags: MessageFlags.Ephemeral,
		});
		return;
	}
	const permission = jobPermission(job);
	if (!isAllowed(interaction, context.config.permissions, permission)) {
		await interaction.reply({ content: notAllowedText('use the buttons of this job', permission), flags: MessageFlags.Ephemeral });
		return;
	}
	await presses[args.button](interaction, job, args, context);
}

/** The jobs a status message can be about: the running one, the standing rules, the last, the last count. */
function findJob(context: BossContext, key: string): Job | undefined {
	const candidates = [context.jobs.current, ...context.jobs.rules.all, context.jobs.last, context.jobs.lastCount, context.boss.liveStatus?.job];
	return candidates.find((job): job is Job => job !== undefined && jobKey(job) === key);
}
