import {
	ApplicationCommandOptionType,
	type APIApplicationCommandInteractionDataOption,
	type APIApplicationCommandOption,
	type APIInteractionDataResolved,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';

/**
 * Turns `{name: value}` into an interaction's `data.options`, typed by the registered command's
 * definition, filling `resolved` for roles, users and channels as Discord does. Roles may be
 * given by id or by name (`{"role": "Staff"}`), users by id.
 */
export function buildCommandOptions(
	state: SandboxState,
	definitions: readonly APIApplicationCommandOption[],
	values: Record<string, unknown>,
	resolved: APIInteractionDataResolved,
	commandName: string,
): APIApplicationCommandInteractionDataOption[] {
	for (const name of Object.keys(values)) {
		if (!definitions.some((definition) => definition.name === name)) {
			throw new ControlError(400, `/${commandName} has no option "${name}"; it has: ${definitions.map((d) => d.name).join(', ') || 'none'}`);
		}
	}
	const options: APIApplicationCommandInteractionDataOption[] = [];
	for (const definition of definitions) {
		const value = values[definition.name];
		if (value === undefined || value === null) {
			if ('required' in definition && definition.required) throw new ControlError(400, `/${commandName} needs option "${definition.name}"`);
			continue;
		}
		options.push(buildOption(state, definition, value, resolved, commandName));
	}
	return options;
}

function buildOption(
	state: SandboxState,
	definition: APIApplicationCommandOption,
	value: unknown,
	resolved: APIInteractionDataResolved,
	commandName: string,
): APIApplicationCommandInteractionDataOption {
	const fail = (why: string): never => {
		throw new ControlError(400, `/${commandName} option "${definition.name}": ${why}`);
	};
	switch (definition.type) {
		case ApplicationCommandOptionType.String: {
			if (typeof value !== 'string') return fail('must be a string');
			const length = [...value].length;
			if (definition.min_length !== undefined && length < definition.min_length) fail(`must be at least ${definition.min_length} characters`);
			if (definition.max_length !== undefined && length > definition.max_length) fail(`must be at most ${definition.max_length} characters`);
			if (definition.choices && !definition.choices.some((choice) => choice.value === value))
				fail(`must be one of ${definition.choices.map((c) => c.value).join(', ')}`);
			return { name: definition.name, type: definition.type, value };
		}
		case ApplicationCommandOptionType.Integer:
		case ApplicationCommandOptionType.Number: {
			const number = typeof value === 'string' ? Number(value) : value;
			if (typeof number !== 'number' || !Number.isFinite(number)) return fail('must be a number');
			if (definition.type === ApplicationCommandOptionType.Integer && !Number.isInteger(number)) fail('must be an integer');
			if (definition.min_value !== undefined && number < definition.min_value) fail(`must be at least ${definition.min_value}`);
			if (definition.max_value !== undefined && number > definition.max_value) fail(`must be at most ${definition.max_value}`);
			return { name: definition.name, type: definition.type, value: number } as APIApplicationCommandInteractionDataOption;
		}
		case ApplicationCommandOptionType.Boolean: {
			const boolean = value === 'true' ? true : value === 'false' ? false : value;
			if (typeof boolean !== 'boolean') return fail('must be true or false');
			return { name: definition.name, type: definition.type, value: boolean };
		}
		case ApplicationCommandOptionType.Role: {
			const role = state.guild.roles.find((candidate) => candidate.id === value || candidate.name === value);
			if (!role) return fail(`no role "${String(value)}" (roles: ${state.guild.roles.map((r) => r.name).join(', ')})`);
			(resolved.roles ??= {})[role.id] = role;
			return { name: definition.name, type: definition.type, value: role.id };
		}
		case ApplicationCommandOptionType.User:
		case ApplicationCommandOptionType.Mentionable: {
			const role = definition.type === ApplicationCommandOptionType.Mentionable && state.guild.roles.find((candidate) => candidate.id === value);
			if (role) {
				(resolved.roles ??= {})[role.id] = role;
				return { name: definition.name, type: definition.type, value: role.id };
			}
			const index = typeof value === 'string' ? state.memberIndex(state.guildId, value) : -1;
			if (index === -1) return fail(`no member ${String(value)}`);
			const { user, ...member } = state.memberJson(index);
			(resolved.users ??= {})[user.id] = user;
			(resolved.members ??= {})[user.id] = { ...member, permissions: state.permissions(index).toString() };
			return { name: definition.name, type: definition.type, value: user.id };
		}
		case ApplicationCommandOptionType.Channel: {
			if (value !== state.guild.channel.id) return fail(`no channel ${String(value)}`);
			const channel = state.channelJson();
			(resolved.channels ??= {})[channel.id] = { id: channel.id, type: channel.type, name: channel.name, permissions: '0' } as never;
			return { name: definition.name, type: definition.type, value: channel.id };
		}
		default:
			return fail(`options of type ${definition.type} are not supported by the sandbox`);
	}
}
