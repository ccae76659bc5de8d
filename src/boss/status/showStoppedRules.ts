import { type ChatInputCommandInteraction, escapeMarkdown } from 'discord.js';
import type { BossContext } from '../BossContext.js';
import type { RuleStopped } from '../JobNotes.js';

/** How long /status still says why a rule stopped: a moderator looking into it days later learns why. */
export const STOPPED_SHOWN_MS = 7 * 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The most stopped rules /status lists, newest first: each says why at length. */
const LISTED = 3;

/**
 * After /status's list of the standing rules, those that stopped in the last
 * {@link STOPPED_SHOWN_MS} because their requester may no longer have them go on (see
 * `stopRule`): who, what they lost, when, and what to do. Kept in the boss's notes, so a restart
 * (which resumes no stopped rule) still shows them. Nothing when none did.
 */
export async function showStoppedRules(interaction: ChatInputCommandInteraction, context: BossContext, now = Date.now()): Promise<void> {
	const running = new Set(context.jobs.rules.all.filter((rule) => !rule.signal.aborted).map((rule) => rule.id));
	// A rule made again goes on in the same journal, under the same id: it runs, it did not stop.
	const stopped = (await context.notes.stoppedRules()).filter(({ jobId, stopped }) => !running.has(jobId) && now - Date.parse(stopped.at) <= STOPPED_SHOWN_MS);
	if (stopped.length === 0) return;
	const lines = stopped.slice(0, LISTED).map(({ jobId, stopped }) => stoppedLine(jobId, stopped));
	const more = stopped.length > LISTED ? `\n… and ${stopped.length - LISTED} more; the bot log names them.` : '';
	await interaction.followUp(
		`🛑 **Stopped rules** (the last ${STOPPED_SHOWN_MS / DAY_MS} days): who made each may no longer have it go on.\n${lines.join('\n')}${more}`,
	);
}

/** `• **Adding @Member** (\`role-add-…\`) stopped <t:…:R>: alice, who started it, no longer has … Make the rule again …` */
export function stoppedLine(jobId: string, { at, title, reason, next }: RuleStopped): string {
	return `• **${escapeMarkdown(title)}** (\`${jobId}\`) stopped <t:${Math.floor(Date.parse(at) / 1000)}:R>: ${escapeMarkdown(reason)}. ${next}`;
}
