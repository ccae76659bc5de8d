import type { ButtonInteraction, ModalSubmitInteraction } from 'discord.js';
import type { BossContext } from './BossContext.js';
import { type ButtonPrefix, type CustomIdArgs, parseCustomId } from './customIds.js';
import { pressPreview } from './preview/pressPreview.js';
import { submitTypedCount } from './preview/submitTypedCount.js';
import { pressStatus } from './status/pressStatus.js';

type ComponentHandler<P extends ButtonPrefix> = (interaction: ButtonInteraction, args: CustomIdArgs[P], context: BossContext) => Promise<void>;

/** The handler of each button prefix in `customIds.ts`, as `commands/bossCommands.ts` lists the commands. */
export const componentHandlers: { readonly [P in ButtonPrefix]: ComponentHandler<P> } = {
	preview: pressPreview,
	status: pressStatus,
};

/**
 * Answers a button press or a modal submit; `false` for a custom_id massnick does not know (an
 * older version's), or one of the other kind.
 */
export async function handleComponent(interaction: ButtonInteraction | ModalSubmitInteraction, context: BossContext): Promise<boolean> {
	const parsed = parseCustomId(interaction.customId);
	if (!parsed) return false;
	if (interaction.isModalSubmit()) {
		if (parsed.prefix !== 'confirm') return false;
		await submitTypedCount(interaction, parsed.args, context);
		return true;
	}
	if (parsed.prefix === 'confirm') return false;
	const handler = componentHandlers[parsed.prefix] as ComponentHandler<typeof parsed.prefix>;
	await handler(interaction, parsed.args as never, context);
	return true;
}
