import { type ChatInputCommandInteraction, escapeMarkdown } from 'discord.js';
import { formatCount } from '../../present/index.js';
import type { Job } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';

/** The most rules /status lists in one message; the guild holds at most `MAX_RULES` anyway. */
const LISTED = 20;

/**
 * After /status's answer, the standing rules (jobs made with `keep`) in the channel: each with its
 * id, who made it and since when, what it has done, and until when. Nothing when there are none.
 */
export async function showRules(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void> {
	const rules = context.jobs.rules.all;
	if (rules.length === 0) return;
	const lines = rules.slice(0, LISTED).map(ruleLine);
	await interaction.followUp(
		`📌 **Standing rules** (${rules.length}): each applies to everyone who joins, and to members who change where its action says so.\n${lines.join('\n')}\n\`/cancel rule:<id>\` ends one; /restore undoes an ended one.`,
	);
}

/** `• **Adding @Member** (\`role-add-…\`) by @mod since <t:…:R>: applied 12 · already done 3 · can't 0 · until <t:…:f>` */
export function ruleLine(rule: Job): string {
	const snapshot = rule.progress.snapshot();
	const since = `<t:${Math.floor(rule.startedAt / 1000)}:R>`;
	const until = rule.keep?.until === undefined ? 'until /cancel' : `until <t:${Math.floor(rule.keep.until / 1000)}:f>`;
	const phase = rule.following ? 'following joins' : 'sweeping the server first';
	return `• **${escapeMarkdown(rule.title)}** (\`${rule.id}\`) by ${escapeMarkdown(rule.startedBy.tag)} since ${since}, ${phase}: applied ${formatCount(snapshot.changed)} · already done ${formatCount(snapshot.alreadyDone)} · can't ${formatCount(snapshot.cant)} · ${until}`;
}
