import { escapeMarkdown } from 'discord.js';
import type { Logger } from 'pino';
import type { ResumeSubject } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { sendableChannel } from './sendableChannel.js';

export interface NotResumed {
	/** What was not resumed: a job, or its restore, with who asked for it. */
	readonly subject: ResumeSubject;
	/** It as its status says it: the job's title, or its restore's. */
	readonly title: string;
	/** Why, as a clause: `alice, who started it, left the server`. */
	readonly reason: string;
	/** What to do, as a sentence. */
	readonly next: string;
	readonly log: Logger;
	readonly at: Date;
}

/**
 * Says why a job or its restore was not resumed: in the log, in the channel its command was run in
 * (when the boss's note on it knows the channel), and through that note in /status.
 */
export async function notResumed(context: BossContext, { subject, title, reason: given, next, log, at }: NotResumed): Promise<undefined> {
	const { jobId } = subject.journal.header;
	// An engine error's message is a sentence of its own: one full stop is enough.
	const reason = given.replace(/[.\s]+$/, '');
	log.warn({ title, startedBy: subject.asked.startedBy.tag, reason, next }, 'job not resumed after a restart');
	const note = await context.notes.read(jobId);
	await context.notes.update(jobId, { notResumed: { at: at.toISOString(), reason, next } });
	const channelId = subject.what === 'restore' ? note.restoreChannelId : note.channelId;
	const channel = channelId === undefined ? undefined : await sendableChannel(context, channelId);
	if (!channel) {
		log.warn({ channelId }, "could not post why the job was not resumed: its channel is gone, unknown, or the boss can't see it");
		return undefined;
	}
	try {
		await channel.send({ content: `⏸️ **${escapeMarkdown(title)}** was not resumed after the restart: ${escapeMarkdown(reason)}. ${next}` });
	} catch (error) {
		log.warn({ err: error, channelId }, 'could not post why the job was not resumed');
	}
	return undefined;
}
