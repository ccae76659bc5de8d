import {
	ApplicationCommandType,
	ApplicationIntegrationType,
	RESTJSONErrorCodes,
	type APIApplicationCommand,
	type APIApplicationCommandOption,
	type RESTPutAPIApplicationGuildCommandsJSONBody,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError, type FieldError } from './errors.js';
import { requireGuild } from './queryParams.js';
import type { Route } from './Route.js';

/** Lowercase names only, per the docs' CHAT_INPUT naming rule. */
const NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/**
 * Guild application commands: bulk overwrite and list. Ids of commands that keep their name
 * and type are kept, as on Discord.
 *
 * @see {@link https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-guild-application-commands}
 */
export const commandRoutes: Route[] = [
	{
		method: 'GET',
		path: '/applications/:app/guilds/:guild/commands',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params }) {
			requireOwnApplication(app!.id, params.app!);
			requireGuild(state, params.guild);
			return { status: 200, body: state.commands.list(app!.id, params.guild!) };
		},
	},
	{
		method: 'PUT',
		path: '/applications/:app/guilds/:guild/commands',
		bucket: 'commands',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params, body }) {
			requireOwnApplication(app!.id, params.app!);
			const guildId = requireGuild(state, params.guild);
			const definitions = validateCommands(body);
			const previous = state.commands.list(app!.id, guildId);
			const commands = definitions.map((definition) => storeCommand(state, app!.id, guildId, definition, previous));
			state.commands.set(app!.id, guildId, commands);
			return { status: 200, body: commands };
		},
	},
];

function requireOwnApplication(authenticated: string, requested: string): void {
	if (authenticated !== requested) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingAccess);
}

function storeCommand(
	state: SandboxState,
	applicationId: string,
	guildId: string,
	definition: RESTPutAPIApplicationGuildCommandsJSONBody[number],
	previous: readonly APIApplicationCommand[],
): APIApplicationCommand {
	const type = definition.type ?? ApplicationCommandType.ChatInput;
	const kept = previous.find((command) => command.name === definition.name && command.type === type);
	const permissions = definition.default_member_permissions;
	// Not in the guild-command body type, but discord.js sends them and Discord echoes them.
	const extra = definition as { contexts?: number[] | null; integration_types?: number[] };
	return {
		id: kept?.id ?? state.snowflakes.next().toString(),
		application_id: applicationId,
		guild_id: guildId,
		name: definition.name,
		name_localizations: definition.name_localizations ?? null,
		description: 'description' in definition ? (definition.description ?? '') : '',
		description_localizations: 'description_localizations' in definition ? (definition.description_localizations ?? null) : null,
		type,
		...('options' in definition && definition.options ? { options: definition.options as APIApplicationCommandOption[] } : {}),
		default_member_permissions: permissions === null || permissions === undefined ? null : String(permissions),
		nsfw: definition.nsfw ?? false,
		contexts: extra.contexts ?? null,
		integration_types: extra.integration_types ?? [ApplicationIntegrationType.GuildInstall],
		version: state.snowflakes.next().toString(),
	} as APIApplicationCommand;
}

/** Discord's checks on a bulk overwrite, with errors keyed by the command's index. */
function validateCommands(body: unknown): RESTPutAPIApplicationGuildCommandsJSONBody {
	if (!Array.isArray(body)) throw DiscordHttpError.invalidFormBody({ _errors: [{ code: 'BASE_TYPE_LIST', message: 'Must be a list.' }] });
	if (body.length > 100) throw DiscordHttpError.invalidFormBody({ _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 100 or fewer in length.' }] });
	const errors: Record<string, unknown> = {};
	const add = (path: string, error: FieldError): void => {
		const keys = path.split('.');
		let node = errors;
		for (const key of keys) node = (node[key] ??= {}) as Record<string, unknown>;
		((node._errors ??= []) as FieldError[]).push(error);
	};
	const seen = new Set<string>();
	body.forEach((command: Record<string, unknown>, index) => {
		const type = (command.type as number | undefined) ?? ApplicationCommandType.ChatInput;
		const name = command.name;
		if (typeof name !== 'string' || !NAME.test(name) || (type === ApplicationCommandType.ChatInput && name !== name.toLowerCase())) {
			add(`${index}.name`, { code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' });
		} else if (seen.has(`${type}:${name}`)) {
			add(`${index}.name`, { code: 'APPLICATION_COMMANDS_DUPLICATE_NAME', message: 'Application command names must be unique' });
		} else seen.add(`${type}:${name}`);
		if (type === ApplicationCommandType.ChatInput) {
			const description = command.description;
			if (typeof description !== 'string' || [...description].length < 1 || [...description].length > 100) {
				add(`${index}.description`, { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' });
			}
			validateOptions(command.options, `${index}.options`, add);
		}
		const permissions = command.default_member_permissions;
		if (permissions !== undefined && permissions !== null && !/^\d+$/.test(String(permissions))) {
			add(`${index}.default_member_permissions`, { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(permissions)}" is not int.` });
		}
	});
	if (Object.keys(errors).length > 0) throw DiscordHttpError.invalidFormBody(errors);
	return body as RESTPutAPIApplicationGuildCommandsJSONBody;
}

function validateOptions(options: unknown, path: string, add: (path: string, error: FieldError) => void): void {
	if (options === undefined || options === null) return;
	if (!Array.isArray(options)) return add(path, { code: 'BASE_TYPE_LIST', message: 'Must be a list.' });
	if (options.length > 25) return add(path, { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
	options.forEach((option: Record<string, unknown>, index) => {
		const name = option.name;
		if (typeof name !== 'string' || !NAME.test(name) || name !== name.toLowerCase())
			add(`${path}.${index}.name`, { code: 'APPLICATION_COMMAND_INVALID_NAME', message: 'Command name is invalid' });
		const description = option.description;
		if (typeof description !== 'string' || [...description].length < 1 || [...description].length > 100) {
			add(`${path}.${index}.description`, { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' });
		}
		validateOptions(option.options, `${path}.${index}.options`, add);
	});
}
