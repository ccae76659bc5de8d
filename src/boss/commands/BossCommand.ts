import type { ChatInputCommandInteraction, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import type { BossContext } from '../BossContext.js';

/**
 * One slash command of the boss: its definition as Discord takes it, beside what runs it (the
 * `{ data, run }` of discord.js's guide). Who may run it is its `default_member_permissions`,
 * checked again on every use (see `Boss`).
 */
export interface BossCommand {
	readonly data: RESTPostAPIChatInputApplicationCommandsJSONBody;
	run(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void>;
}
