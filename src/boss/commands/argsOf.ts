import type { ChatInputCommandInteraction } from 'discord.js';
import type { ActionArgs } from '../../actions/index.js';

/** A slash command's options as the action modules read them. */
export function argsOf(interaction: ChatInputCommandInteraction): ActionArgs {
	const { options } = interaction;
	return {
		subcommand: options.getSubcommand(false) ?? undefined,
		string: (name) => options.getString(name) ?? undefined,
		role: (name) => options.getRole(name)?.id,
		boolean: (name) => options.getBoolean(name) ?? false,
	};
}
