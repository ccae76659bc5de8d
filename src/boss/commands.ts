import {
	type APIApplicationCommandBasicOption,
	ApplicationCommandOptionType,
	ApplicationCommandType,
	InteractionContextType,
	PermissionFlagsBits,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/**
 * Only members with Manage Nicknames see the commands (Discord hides them from everyone else);
 * the boss checks again on every use, since server admins can override this per command.
 * See https://discord.com/developers/docs/interactions/application-commands#permissions
 */
const managers = String(PermissionFlagsBits.ManageNicknames);
/** /massrole hands out roles: only members who may do that themselves see it. */
const roleManagers = String(PermissionFlagsBits.ManageRoles);

const dryRun = {
	type: ApplicationCommandOptionType.Boolean,
	name: 'dry_run',
	description: 'Plan and count only: nothing is changed',
	required: false,
} as const;

/** The options of `/massrole add` and `/massrole remove`. */
const massroleOptions: APIApplicationCommandBasicOption[] = [
	{ type: ApplicationCommandOptionType.Role, name: 'role', description: 'The role to give (add) or take (remove)', required: true },
	{ type: ApplicationCommandOptionType.Role, name: 'only_role', description: 'Only members with this role', required: false },
	{ type: ApplicationCommandOptionType.Role, name: 'exclude_role', description: 'Leave members with this role alone', required: false },
	{ ...dryRun },
];

export const massnickCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'massnick',
	description: "Set every member's nickname",
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: ApplicationCommandOptionType.String,
			name: 'name',
			description: 'The nickname, or a template like "🎃 {display_name}" ({username}, {display_name}, {nick})',
			required: true,
			min_length: 1,
			max_length: 100,
		},
		{ type: ApplicationCommandOptionType.Role, name: 'role', description: 'Only members with this role', required: false },
		{
			type: ApplicationCommandOptionType.Role,
			name: 'exclude_role',
			description: 'Leave members with this role alone',
			required: false,
		},
		dryRun,
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const massroleCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'massrole',
	description: 'Give a role to every member, or take it from every member',
	default_member_permissions: roleManagers,
	contexts: [InteractionContextType.Guild],
	options: [
		{ type: ApplicationCommandOptionType.Subcommand, name: 'add', description: 'Give the role to every member who lacks it', options: massroleOptions },
		{ type: ApplicationCommandOptionType.Subcommand, name: 'remove', description: 'Take the role from every member who has it', options: massroleOptions },
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const restoreCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'restore',
	description: 'Undo the last job: every member back to what they had before it',
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
	options: [
		dryRun,
		{
			type: ApplicationCommandOptionType.String,
			name: 'name',
			description: 'Only if no journal is left: clear this nickname wherever it is set',
			required: false,
			max_length: 100,
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const statusCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'status',
	description: 'Show the running job with a message that updates itself',
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const statsCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'stats',
	description: 'Count the members who have what the last job set (or a nickname), from the live server',
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
	options: [
		{
			type: ApplicationCommandOptionType.String,
			name: 'name',
			description: 'The nickname or template to count (default: the last job\'s)',
			required: false,
			max_length: 100,
		},
	],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const shardsCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'shards',
	description: "Each worker's members, gateway ping and state",
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

export const cancelCommand = {
	type: ApplicationCommandType.ChatInput,
	name: 'cancel',
	description: 'Stop the running job; what was done stays journaled',
	default_member_permissions: managers,
	contexts: [InteractionContextType.Guild],
} as const satisfies RESTPostAPIChatInputApplicationCommandsJSONBody;

/** Every command the boss registers in the guild, in the order Discord lists them. */
export const commandDefinitions = [
	massnickCommand,
	massroleCommand,
	restoreCommand,
	statusCommand,
	statsCommand,
	shardsCommand,
	cancelCommand,
] as const;

export type CommandName = (typeof commandDefinitions)[number]['name'];

