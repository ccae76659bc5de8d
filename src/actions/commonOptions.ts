import {
	type APIApplicationCommandBasicOption,
	type APIApplicationCommandOption,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { ActionModule } from './ActionModule.js';

/** The option every changing command has: plan and count, change nothing. */
export const DRY_RUN_OPTION = 'dry_run';
export const ONLY_ROLE_OPTION = 'only_role';
export const EXCLUDE_ROLE_OPTION = 'exclude_role';

/**
 * The engine's options, the same on every action's command (and each of its subcommands): who the
 * job is about, then `dry_run`. The engine reads them; a module never sees them.
 */
export function commonOptions(module: ActionModule): APIApplicationCommandBasicOption[] {
	return [
		{ type: ApplicationCommandOptionType.Role, name: module.onlyRoleOption ?? ONLY_ROLE_OPTION, description: 'Only members with this role', required: false },
		{ type: ApplicationCommandOptionType.Role, name: EXCLUDE_ROLE_OPTION, description: 'Leave members with this role alone', required: false },
		{ type: ApplicationCommandOptionType.Boolean, name: DRY_RUN_OPTION, description: 'Plan and count only: nothing is changed', required: false },
	];
}

/**
 * The module's command as the boss registers it: its own options first (Discord wants required
 * options before the others), then the {@link commonOptions}, on the command or on each of its
 * subcommands.
 */
export function actionCommandData(module: ActionModule): RESTPostAPIChatInputApplicationCommandsJSONBody {
	const common = commonOptions(module);
	const own: readonly APIApplicationCommandOption[] = module.command.options ?? [];
	const hasSubcommands = own.some((option) => option.type === ApplicationCommandOptionType.Subcommand);
	const options = hasSubcommands
		? own.map((option) => (option.type === ApplicationCommandOptionType.Subcommand ? { ...option, options: [...(option.options ?? []), ...common] } : option))
		: [...own, ...common];
	return { ...module.command, options };
}
