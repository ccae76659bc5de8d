import { type BaseInteraction, MessageFlags, type RepliableInteraction, type SendableChannels } from 'discord.js';
import type { Job } from '../../jobs/Job.js';
import type { BossContext } from '../BossContext.js';
import { LiveStatus, type RenderLive } from './LiveStatus.js';

/**
 * Posts the live status message of `job` in the interaction's channel; a channel the bot cannot
 * post in does not undo the job. Used by every command that starts a job, by /status, and by a
 * preview's Start. `render` shows something else than the job's own status (a fleet's /status).
 */
export async function showLive(interaction: RepliableInteraction, context: BossContext, job: Job, render?: RenderLive): Promise<void> {
	const channel = await channelOf(interaction);
	if (!channel) return;
	const current = job === context.jobs.current;
	const live = new LiveStatus(job, channel, context.config.statusRefreshSeconds * 1000, context.logger, current, render);
	if (current) context.boss.liveStatus = live;
	try {
		await live.start();
	} catch (error) {
		live.stop();
		context.logger.warn({ err: error }, 'could not post the live status');
		await interaction.followUp({
			content: 'The job runs, but the live status could not be posted in this channel (does the boss have Send Messages here?). Use /status in another channel.',
			flags: MessageFlags.Ephemeral,
		});
	}
}

/** The channel an interaction came from, if the boss can post in it. */
export async function channelOf(interaction: BaseInteraction): Promise<SendableChannels | undefined> {
	const channel = interaction.channel ?? (interaction.channelId ? await interaction.client.channels.fetch(interaction.channelId) : null);
	return channel && 'send' in channel ? (channel as SendableChannels) : undefined;
}
