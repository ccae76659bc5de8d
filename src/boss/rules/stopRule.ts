import { escapeMarkdown } from 'discord.js';
import type { Logger } from 'pino';
import { ErrorCodes, JobError } from '../../errors.js';
import type { Job, Refusal, RequesterNow, RequesterRank } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { sendableChannel } from '../resume/sendableChannel.js';
import { wordRuleNext, wordRuleStop } from './wordRuleStop.js';

/** A rule whose requester may no longer have it go on, as the re-check found them. */
export interface RequesterLost {
	readonly rule: Job;
	readonly why: Refusal;
	/** The command's permission, by name (`Manage Roles`). */
	readonly permission: string;
	/** The rank they made it with: who else reaches as far. */
	readonly rank: RequesterRank;
	readonly now: RequesterNow;
}

/**
 * Stops a standing rule whose requester may no longer have it go on: it ends as failed with a
 * `RULE_REQUESTER_LOST` error that says who, what they lost and what to do (its live status and
 * report show it), no restart resumes it, /status keeps why (the boss's note), and the channel it
 * was made in is told once. Nothing when the rule was ending already.
 *
 * @returns whether it stopped the rule.
 */
export async function stopRule(context: BossContext, { rule, why, permission, rank, now }: RequesterLost, log: Logger): Promise<boolean> {
	const reason = wordRuleStop(why, permission, now);
	const next = wordRuleNext(rank, permission);
	const error = new JobError(ErrorCodes.RuleRequesterLost, `The standing rule stopped: ${reason}. ${next}`, {
		context: { rule: rule.id, requester: rule.startedBy.id, refusal: why.code, permission },
	});
	if (!context.jobs.rules.end(rule, error)) return false;
	const at = new Date();
	log.warn(
		{ rule: rule.id, title: rule.title, startedBy: rule.startedBy.tag, why: why.code, reason },
		'standing rule stopped: its requester may no longer have it go on',
	);
	await context.notes.update(rule.id, { ruleStopped: { at: at.toISOString(), title: rule.title, reason, next } });
	const { channelId } = await context.notes.read(rule.id);
	const channel = channelId === undefined ? undefined : await sendableChannel(context, channelId);
	if (!channel) {
		log.warn({ rule: rule.id, channelId }, "could not post why the rule stopped: its channel is gone, unknown, or the boss can't see it; /status says why");
		return true;
	}
	try {
		const when = `<t:${Math.floor(at.getTime() / 1000)}:f>`;
		await channel.send({
			content: `🛑 The standing rule **${escapeMarkdown(rule.title)}** (\`${rule.id}\`) stopped at ${when}: ${escapeMarkdown(reason)}. ${next}`,
		});
	} catch (sendError) {
		log.warn({ err: sendError, rule: rule.id, channelId }, 'could not post why the rule stopped; /status says why');
	}
	return true;
}
