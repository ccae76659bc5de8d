import { type BaseInteraction, type Message, MessageFlags, type RepliableInteraction, type SendableChannels } from 'discord.js';
import type { Job } from '../../jobs/index.js';
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
	try {
		await postLive(context, job, channel, { render });
	} catch (error) {
		context.logger.warn({ err: error }, 'could not post the live status');
		await interaction.followUp({
			content:
				'The job runs, but the live status could not be posted in this channel (does the boss have Send Messages here?). Use /status in another channel.',
			flags: MessageFlags.Ephemeral,
		});
	}
}

export interface PostLiveOptions {
	readonly render?: RenderLive | undefined;
	/** A message to take over rather than post a new one (a resumed job's old status). */
	readonly existing?: Message | undefined;
}

/**
 * Posts (or takes over) the live status message of `job` in `channel`: the running job's is the
 * boss's live status, and where it is is kept beside the job's journal, for a resume to find.
 *
 * @throws what Discord answered when the message could not be posted (the job runs on).
 */
export async function postLive(context: BossContext, job: Job, channel: SendableChannels, options: PostLiveOptions = {}): Promise<LiveStatus> {
	// A standing rule past its sweep (a small server's is, by the time its message is posted) is
	// not the running job any more, but it still runs, and /cancel rule: or its Cancel ends it.
	const current = job === context.jobs.current || context.jobs.rules.all.includes(job);
	const { statusRefreshSeconds, ruleStatusRefreshSeconds } = context.config;
	const live = new LiveStatus(job, channel, statusRefreshSeconds * 1000, context.logger, current, options.render, ruleStatusRefreshSeconds * 1000);
	if (current) context.boss.liveStatus = live;
	try {
		const message = await live.start(options.existing);
		if (current && context.jobs.runOf(job)?.recorded)
			void context.notes.update(job.id, { statusMessage: { channelId: message.channelId, messageId: message.id } });
	} catch (error) {
		live.stop();
		throw error;
	}
	return live;
}

/** The channel an interaction came from, if the boss can post in it. */
export async function channelOf(interaction: BaseInteraction): Promise<SendableChannels | undefined> {
	const channel = interaction.channel ?? (interaction.channelId ? await interaction.client.channels.fetch(interaction.channelId) : null);
	return channel && 'send' in channel ? (channel as SendableChannels) : undefined;
}
