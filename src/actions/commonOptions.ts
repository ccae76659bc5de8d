import {
	type APIApplicationCommandBasicOption,
	type APIApplicationCommandOption,
	ApplicationCommandOptionType,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { MAX_NAME_PATTERN_LENGTH } from '../jobs/index.js';
import type { ActionModule } from './ActionModule.js';

/** The option every changing command has: plan and count, change nothing. */
export const DRY_RUN_OPTION = 'dry_run';
export const ONLY_ROLE_OPTION = 'only_role';
export const EXCLUDE_ROLE_OPTION = 'exclude_role';
/** The option that makes a job a standing rule: it keeps applying to joiners (see `KeepOptions`). */
export const KEEP_OPTION = 'keep';
/** When a standing rule ends by itself: a date, or how long from now. */
export const UNTIL_OPTION = 'until';

/** The finer filters' options, by the filter each sets. */
export const FILTER_OPTIONS = {
	members: 'members',
	noRoles: 'no_roles',
	joinedBefore: 'joined_before',
	joinedAfter: 'joined_after',
	createdBefore: 'created_before',
	createdAfter: 'created_after',
	nameMatches: 'name_matches',
	/** A file of user ids: an attachment on a command, a path on the command line. */
	userIds: 'ids_file',
} as const;

const WHEN = 'a date (2024-01-31) or how long ago (7d, 12h, 2w)';

/**
 * The engine's options, the same on every action's command (and each of its subcommands): who the
 * job is about, then `dry_run`. The engine reads them; a module never sees them.
 */
export function commonOptions(module: ActionModule): APIApplicationCommandBasicOption[] {
	return [
		{ type: ApplicationCommandOptionType.Role, name: module.onlyRoleOption ?? ONLY_ROLE_OPTION, description: 'Only members with this role', required: false },
		{ type: ApplicationCommandOptionType.Role, name: EXCLUDE_ROLE_OPTION, description: 'Leave members with this role alone', required: false },
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.members,
			description: 'Humans only, bots only (other bots; massnick never changes its own), or all (the default)',
			required: false,
			choices: [
				{ name: 'all', value: 'all' },
				{ name: 'humans', value: 'humans' },
				{ name: 'bots', value: 'bots' },
			],
		},
		{ type: ApplicationCommandOptionType.Boolean, name: FILTER_OPTIONS.noRoles, description: 'Only members with no role but @everyone', required: false },
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.joinedBefore,
			description: `Only members who joined before ${WHEN}`,
			required: false,
			max_length: 40,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.joinedAfter,
			description: `Only members who joined at or after ${WHEN}`,
			required: false,
			max_length: 40,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.createdBefore,
			description: `Only accounts created before ${WHEN}`,
			required: false,
			max_length: 40,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.createdAfter,
			description: `Only accounts created at or after ${WHEN}`,
			required: false,
			max_length: 40,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: FILTER_OPTIONS.nameMatches,
			description: 'Only members whose username, display name or nickname contains this, or matches /a regex/i',
			required: false,
			max_length: MAX_NAME_PATTERN_LENGTH,
		},
		{
			type: ApplicationCommandOptionType.Attachment,
			name: FILTER_OPTIONS.userIds,
			description: 'Only members whose user id this text or CSV file lists (one a line, or an id column)',
			required: false,
		},
		{ type: ApplicationCommandOptionType.Boolean, name: DRY_RUN_OPTION, description: 'Plan and count only: nothing is changed', required: false },
		{
			type: ApplicationCommandOptionType.Boolean,
			name: KEEP_OPTION,
			description: 'Standing rule: after its sweep, also apply to everyone who joins (or renames, for names)',
			required: false,
		},
		{
			type: ApplicationCommandOptionType.String,
			name: UNTIL_OPTION,
			description: 'With keep: when the rule ends by itself, a date (2025-01-31) or a time from now (12h, 30d)',
			required: false,
			max_length: 40,
		},
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
