import { escapeMarkdown, MessageFlags, type ModalSubmitInteraction } from 'discord.js';
import { formatCount } from '../../present/index.js';
import type { BossContext } from '../BossContext.js';
import type { CustomIdArgs } from '../customIds.js';
import { claimPreview } from './pressPreview.js';
import { startPreviewed } from './startPreviewed.js';
import { readTypedCount, TYPED_COUNT_INPUT } from './typedCountModal.js';

/** The most of what was typed a refusal repeats. */
const ECHO_LIMIT = 40;

/**
 * The modal of a preview's Start submitted with the typed count. The same member, the same
 * permission and the same open preview as a press of Start are required. The number of members
 * the preview shows starts the job as Start would; anything else starts nothing, says what was
 * typed and what was expected, and leaves the preview open for another try or Cancel.
 */
export async function submitTypedCount(interaction: ModalSubmitInteraction, { previewId }: CustomIdArgs['confirm'], context: BossContext): Promise<void> {
	const preview = await claimPreview(interaction, previewId, context);
	if (!preview) return;
	const expected = preview.facts.typedCount;
	const typed = interaction.fields.getTextInputValue(TYPED_COUNT_INPUT);
	if (expected === undefined || readTypedCount(typed) !== expected || !interaction.isFromMessage()) {
		const echo = [...typed.trim()].slice(0, ECHO_LIMIT).join('');
		const shown = expected === undefined ? 'no number' : `**${formatCount(expected)}**`;
		await interaction.reply({
			content: `You typed “${escapeMarkdown(echo)}”, but the preview shows ${shown} members to be ${preview.pending.action.words.changed}: nothing ran. The preview is still open: press **Start** again and type ${expected ?? 'the number'} to go on, or **Cancel**.`,
			flags: MessageFlags.Ephemeral,
		});
		return;
	}
	// Taken before any await: a second submit, or a press of Start or Cancel, finds it gone.
	context.previews.take(previewId, interaction.user.id, 'started');
	await interaction.update(preview.render({ state: 'starting' }));
	await startPreviewed(interaction, preview, context);
}
