import type { ButtonInteraction, ModalMessageModalSubmitInteraction } from 'discord.js';
import { MassnickError } from '../../errors.js';
import type { BossContext } from '../BossContext.js';
import { allowedFor } from '../isAllowed.js';
import { readRequesterRank } from '../readRequesterRank.js';
import { requesterOf } from '../requesterOf.js';
import { showLive } from '../status/showLive.js';
import { wordError } from '../wordError.js';
import type { Preview } from './Preview.js';

/**
 * Starts a previewed job its member confirmed (Start, or Start and the typed count), after the
 * preview was taken off the board and its message shows it starting: the job runs the way an
 * unpreviewed command's does (its live status posted in the channel), and the preview says so,
 * or why it could not start.
 */
export async function startPreviewed(
	interaction: ButtonInteraction | ModalMessageModalSubmitInteraction,
	preview: Preview,
	context: BossContext,
): Promise<void> {
	try {
		// The member's roles as Discord sent them with this press: a demotion since the preview counts.
		const rank = readRequesterRank(interaction, context.boss.guild);
		const { job, text } = await preview.pending.start({
			dryRun: false,
			startedBy: requesterOf(interaction),
			rank,
			allowed: allowedFor(interaction, context.config.permissions),
			channelId: interaction.channelId ?? undefined,
		});
		await interaction.editReply(preview.render({ state: 'started', text }));
		await showLive(interaction, context, job);
	} catch (error) {
		const expected = error instanceof MassnickError;
		if (!expected) context.logger.error({ err: error, preview: preview.id }, 'a previewed job could not start');
		const message = expected ? wordError(error as MassnickError) : 'something went wrong; the bot log has the details.';
		await interaction.editReply(preview.render({ state: 'failed', error: message }));
	}
}
