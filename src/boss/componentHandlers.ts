import type { ButtonInteraction } from 'discord.js';
import type { BossContext } from './BossContext.js';
import { type CustomIdArgs, type CustomIdPrefix, parseCustomId } from './customIds.js';
import { pressPreview } from './preview/pressPreview.js';
import { pressStatus } from './status/pressStatus.js';

type ComponentHandler<P extends CustomIdPrefix> = (interaction: ButtonInteraction, args: CustomIdArgs[P], context: BossContext) => Promise<void>;

/** The handler of each custom_id prefix in `customIds.ts`, as `commands/bossCommands.ts` lists the commands. */
export const componentHandlers: { readonly [P in CustomIdPrefix]: ComponentHandler<P> } = {
	preview: pressPreview,
	status: pressStatus,
};

/** Answers a button press; `false` for a custom_id massnick does not know (an older version's). */
export async function handleButton(interaction: ButtonInteraction, context: BossContext): Promise<boolean> {
	const parsed = parseCustomId(interaction.customId);
	if (!parsed) return false;
	const handler = componentHandlers[parsed.prefix] as ComponentHandler<typeof parsed.prefix>;
	await handler(interaction, parsed.args as never, context);
	return true;
}
