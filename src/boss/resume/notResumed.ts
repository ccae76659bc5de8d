import { escapeMarkdown } from 'discord.js';
import type { Logger } from 'pino';
import type { BossContext } from '../BossContext.js';
import { sendableChannel } from './sendableChannel.js';

export interface NotResumed {
	/** The journal's job: the boss's note on it keeps why, for /status. */
	readonly jobId: string;
	/** What was not resumed, as its status says it: the job's title, or its restore's. */
	readonly title: string;
	/** Who started what was not resumed. */
	readonly startedBy: string;
	/** Where it was started: the channel told why (none known: the log and /status alone say it). */
	readonly channelId: string | undefined;
	/** Why, as a clause: `alice, who started it, left the server`. */
	readonly reason: string;
	/** What to do, as a sentence. */
	readonly next: string;
	readonly log: Logger;
	readonly at: Date;
}

/** Says why a job or its restore was not resumed, in the log, in its channel and (through its note) in /status. */
export async function notResumed(context: BossContext, { jobId, title, startedBy, channelId, reason: given, next, log, at }: NotResumed): Promise<undefined> {
	// An engine error's message is a sentence of its own: one full stop is enough.
	const reason = given.replace(/[.\s]+$/, '');
	log.warn({ title, startedBy, reason, next }, 'job not resumed after a restart');
	await context.notes.update(jobId, { notResumed: { at: at.toISOString(), reason, next } });
	const channel = channelId === undefined ? undefined : await sendableChannel(context, channelId);
	if (!channel) {
		log.warn({ channelId }, "could not post why the job was not resumed: its channel is gone or the boss can't see it");
		return undefined;
	}
	try {
		await channel.send({ content: `⏸️ **${escapeMarkdown(title)}** was not resumed after the restart: ${escapeMarkdown(reason)}. ${next}` });
	} catch (error) {
		log.warn({ err: error, channelId }, 'could not post why the job was not resumed');
	}
	return undefined;
}
