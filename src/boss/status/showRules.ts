import { type ChatInputCommandInteraction, escapeMarkdown } from 'discord.js';
import { formatCount } from '../../present/index.js';
import type { Job } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';

/** Discord's limit on a message's content, less room for the "and N more" line. */
const ROOM = 2_000 - 60;

/**
 * After /status's answer, the standing rules (jobs made with `keep`) in the channel: each with its
 * id, who made it and since when, what it has done, and until when. Nothing when there are none.
 */
export async function showRules(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void> {
	const rules = context.jobs.rules.all;
	if (rules.length === 0) return;
	await interaction.followUp(rulesMessage(rules.map(ruleLine)));
}

/**
 * /status's message of the rules, one line each, as many as fit in one message (20 rules' lines
 * may not): the rest counted, to be ended by their title.
 */
export function rulesMessage(lines: readonly string[]): string {
	const head = `📌 **Standing rules** (${lines.length}): each applies to everyone who joins, and to members who change where its action says so.`;
	const tail = '`/cancel rule:<id>` ends one; /restore undoes an ended one.';
	let text = head;
	let shown = 0;
	for (const line of lines) {
		if (text.length + line.length + tail.length + 2 > ROOM) break;
		text += `\n${line}`;
		shown++;
	}
	if (shown < lines.length) text += `\n…and ${lines.length - shown} more, with no room here: \`/cancel rule:<title>\` ends one by its title too.`;
	return `${text}\n${tail}`;
}

/** `• **Adding @Member** (\`role-add-…\`) by @mod since <t:…:R>: applied 12 · already done 3 · can't 0 · left alone 5 · until <t:…:f>` (left alone: outside its filters) */
export function ruleLine(rule: Job): string {
	const snapshot = rule.progress.snapshot();
	const since = `<t:${Math.floor(rule.startedAt / 1000)}:R>`;
	const until = rule.keep?.until === undefined ? 'until /cancel' : `until <t:${Math.floor(rule.keep.until / 1000)}:f>`;
	const phase = rule.following
		? 'following joins'
		: rule.keep?.catchUp
			? 'following joins, and catching up at low priority with who joined while massnick was down'
			: 'sweeping the server first';
	return `• **${escapeMarkdown(rule.title)}** (\`${rule.id}\`) by ${escapeMarkdown(rule.startedBy.tag)} since ${since}, ${phase}: applied ${formatCount(snapshot.changed)} · already done ${formatCount(snapshot.alreadyDone)} · can't ${formatCount(snapshot.cant + snapshot.aboveRequester)} · left alone ${formatCount(snapshot.skipped)} · ${until}`;
}
