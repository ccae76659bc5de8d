import { escapeMarkdown, type Message } from 'discord.js';
import type { Logger } from 'pino';
import type { Job } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import type { JobNote } from '../JobNotes.js';
import type { RenderLive } from '../status/LiveStatus.js';
import { renderLiveMessage } from '../status/renderJob.js';
import { postLive } from '../status/showLive.js';
import { resumedLine } from './resumedLine.js';
import { sendableChannel } from './sendableChannel.js';

/** Where a resumed job's status goes: its old status message if one is kept, else its channel. */
export type ResumedIn = Pick<JobNote, 'channelId' | 'statusMessage'>;

/**
 * The resumed job's live status, with when it resumed and what is left: its old status message
 * edited when it is still there (with a line below pointing to it), else a new one in its channel.
 */
export async function showResumed(context: BossContext, job: Job, where: ResumedIn, resumedAt: Date, log: Logger): Promise<void> {
	const render: RenderLive = (shown) => ({
		...renderLiveMessage(shown, true),
		content: resumedLine(shown.progress.snapshot(), resumedAt, shown.result !== undefined),
	});
	const old = where.statusMessage;
	const oldChannel = old && (await sendableChannel(context, old.channelId));
	let existing: Message | undefined;
	if (old && oldChannel) existing = await oldChannel.messages.fetch(old.messageId).catch(() => undefined);
	const channel = existing ? oldChannel : where.channelId === undefined ? undefined : await sendableChannel(context, where.channelId);
	if (!channel) {
		log.warn({ channelId: where.channelId }, "the resumed job's channel is gone or the boss can't see it: /status shows the job");
		return;
	}
	try {
		await postLive(context, job, channel, { render, existing });
		if (existing) await channel.send({ content: `🔁 **${escapeMarkdown(job.title)}** resumed after a restart; its live status is up here: ${existing.url}` });
	} catch (error) {
		log.warn({ err: error }, 'could not post the live status of the resumed job');
	}
}
