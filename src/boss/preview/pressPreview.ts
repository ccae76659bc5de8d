import { type ButtonInteraction, MessageFlags } from 'discord.js';
import { permissionNames } from '../../discord/permissionNames.js';
import { MassnickError } from '../../errors.js';
import type { BossContext } from '../BossContext.js';
import { wordError } from '../wordError.js';
import type { CustomIdArgs } from '../customIds.js';
import { allowedFor, isAllowed, notAllowedText } from '../isAllowed.js';
import type { PreviewClaim } from './PreviewBoard.js';
import { requesterOf } from '../requesterOf.js';
import { readRequesterRank } from '../readRequesterRank.js';
import { showLive } from '../status/showLive.js';

/** What a press on a preview that isn't open (or isn't the member's) is told, privately. */
const refusals: Record<Exclude<PreviewClaim, { ok: true }>['reason'], string> = {
	'not-yours': 'Only the member who ran the command can start or cancel this preview. Nothing ran.',
	started: 'This preview was already started; its live status is in the channel.',
	cancelled: 'This preview was cancelled, so nothing ran. Run the command again for a fresh one.',
	expired: 'This preview expired, so nothing ran. Run the command again for a fresh one.',
	replaced: 'A newer command replaced this preview: nothing ran from it.',
	stopped: 'massnick stopped since this preview was shown, so nothing ran. Run the command again.',
	unknown: 'This preview is no longer open (massnick restarted since it was shown), so nothing ran. Run the command again.',
};

/**
 * A preview's Start or Cancel. Only the member who ran the command may answer it, once, while it
 * is open; any other press is refused privately and nothing runs. Start runs the job the way an
 * unpreviewed command does (its live status posted in the channel) and the preview says so;
 * Cancel says nothing ran.
 */
export async function pressPreview(interaction: ButtonInteraction, { previewId, button }: CustomIdArgs['preview'], context: BossContext): Promise<void> {
	const claim = context.previews.check(previewId, interaction.user.id);
	if (!claim.ok) {
		await interaction.reply({ content: refusals[claim.reason], flags: MessageFlags.Ephemeral });
		return;
	}
	const preview = claim.preview;
	if (!isAllowed(interaction, context.config.permissions, preview.options.permission)) {
		await interaction.reply({ content: notAllowedText('start this job', permissionNames(preview.options.permission)), flags: MessageFlags.Ephemeral });
		return;
	}
	// Taken before any await: a second press finds it gone.
	context.previews.take(previewId, interaction.user.id, button === 'start' ? 'started' : 'cancelled');
	if (button === 'cancel') {
		await interaction.update(preview.render({ state: 'cancelled' }));
		return;
	}
	await interaction.update(preview.render({ state: 'starting' }));
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
		if (!expected) context.logger.error({ err: error, preview: previewId }, 'a previewed job could not start');
		const message = expected ? wordError(error as MassnickError) : 'something went wrong; the bot log has the details.';
		await interaction.editReply(preview.render({ state: 'failed', error: message }));
	}
}
