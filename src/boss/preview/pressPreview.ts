import { type ButtonInteraction, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import type { BossContext } from '../BossContext.js';
import type { CustomIdArgs } from '../customIds.js';
import { isAllowed, notAllowedText } from '../isAllowed.js';
import type { Preview } from './Preview.js';
import type { PreviewClaim } from './PreviewBoard.js';
import { startPreviewed } from './startPreviewed.js';
import { typedCountModal } from './typedCountModal.js';

/** What a press on a preview that isn't open (or isn't the member's) is told, privately. */
export const refusals: Record<Exclude<PreviewClaim, { ok: true }>['reason'], string> = {
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
 * Cancel says nothing ran. For a job whose count is typed before it runs (a kick), Start opens
 * the modal that takes it and leaves the preview open: the submit starts it (`submitTypedCount`).
 */
export async function pressPreview(interaction: ButtonInteraction, { previewId, button }: CustomIdArgs['preview'], context: BossContext): Promise<void> {
	const preview = await claimPreview(interaction, previewId, context);
	if (!preview) return;
	// A job whose count is typed (a kick) asks for it first; the preview stays open until it is right.
	const typed = preview.facts.typedCount;
	if (button === 'start' && typed !== undefined) {
		await interaction.showModal(typedCountModal(preview, typed));
		return;
	}
	// Taken before any await: a second press finds it gone.
	context.previews.take(previewId, interaction.user.id, button === 'start' ? 'started' : 'cancelled');
	if (button === 'cancel') {
		await interaction.update(preview.render({ state: 'cancelled' }));
		return;
	}
	await interaction.update(preview.render({ state: 'starting' }));
	await startPreviewed(interaction, preview, context);
}

/**
 * The open preview `previewId` for the member who answers it (a press of Start or Cancel, or the
 * typed count's submit), who still holds its permission; otherwise they are told why privately,
 * nothing runs, and this is `undefined`.
 */
export async function claimPreview(
	interaction: ButtonInteraction | ModalSubmitInteraction,
	previewId: string,
	context: BossContext,
): Promise<Preview | undefined> {
	const claim = context.previews.check(previewId, interaction.user.id);
	if (!claim.ok) {
		await interaction.reply({ content: refusals[claim.reason], flags: MessageFlags.Ephemeral });
		return undefined;
	}
	if (!isAllowed(interaction, context.config.permissions, claim.preview.options.permission)) {
		await interaction.reply({ content: notAllowedText('start this job', claim.preview.options.permission), flags: MessageFlags.Ephemeral });
		return undefined;
	}
	return claim.preview;
}
