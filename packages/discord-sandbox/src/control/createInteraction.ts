import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	InteractionType,
	type APIApplicationCommandInteractionDataOption,
	type APIApplicationCommandOption,
	type APIChatInputApplicationCommandGuildInteraction,
	type APIInteractionDataResolved,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { buildCommandOptions } from './buildCommandOptions.js';
import { ControlError } from './ControlError.js';
import { dispatchInteraction, interactionEnvelope } from './interactionEnvelope.js';

/** `POST /_sandbox/interactions`: a member runs a slash command. */
export interface InvokeCommandRequest {
	guildId: string;
	userId: string;
	/** The command as typed, with subcommands: `massnick`, `jobs cancel`. */
	command: string;
	options?: Record<string, unknown>;
	channelId?: string;
	/** Which application's command, when several registered one with this name. */
	applicationId?: string;
}

/**
 * Builds the INTERACTION_CREATE that Discord would send when `userId` runs `command`, records it,
 * and dispatches it to the application that registered the command.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object}
 */
export function createInteraction(state: SandboxState, request: InvokeCommandRequest): { id: string } {
	if (typeof request.command !== 'string' || request.command.trim() === '') throw new ControlError(400, 'command is required, e.g. "massnick"');
	if (request.guildId !== state.guildId) throw new ControlError(404, `unknown guild ${String(request.guildId)}; the sandbox's guild is ${state.guildId}`);
	const userIndex = typeof request.userId === 'string' ? state.memberIndex(state.guildId, request.userId) : -1;
	if (userIndex === -1) throw new ControlError(404, `user ${String(request.userId)} is not a member of guild ${state.guildId}`);
	const channelId = request.channelId ?? state.guild.channel.id;
	if (channelId !== state.guild.channel.id) throw new ControlError(404, `unknown channel ${channelId}; the sandbox's channel is ${state.guild.channel.id}`);

	const [name, ...path] = request.command.trim().split(/\s+/) as [string, ...string[]];
	const candidates = state.commands
		.findByName(state.guildId, name)
		.filter((command) => !request.applicationId || command.application_id === request.applicationId);
	const command = candidates[0];
	if (!command) {
		const registered = state.apps.flatMap((app) => state.commands.list(app.id, state.guildId).map((c) => `/${c.name}`));
		throw new ControlError(404, `no command /${name} is registered in guild ${state.guildId} (registered: ${registered.join(', ') || 'none'})`);
	}
	const app = state.appById(command.application_id)!;

	const resolved: APIInteractionDataResolved = {};
	const options = buildNestedOptions(state, command.options ?? [], path, request.options ?? {}, resolved, request.command.trim());
	const envelope = interactionEnvelope(state, app, userIndex);
	const payload: APIChatInputApplicationCommandGuildInteraction = {
		...envelope,
		type: InteractionType.ApplicationCommand,
		data: {
			id: command.id,
			name: command.name,
			type: ApplicationCommandType.ChatInput,
			guild_id: state.guildId,
			...(options.length > 0 ? { options } : {}),
			...(Object.keys(resolved).length > 0 ? { resolved } : {}),
		},
	};
	return dispatchInteraction(state, app, envelope, {
		type: InteractionType.ApplicationCommand,
		channelId: envelope.channel_id,
		command: [name, ...path].join(' '),
		customId: null,
		componentMessageId: null,
		payload,
	});
}

/** Walks `path` through subcommand groups and subcommands, then builds the leaf's options. */
function buildNestedOptions(
	state: SandboxState,
	definitions: readonly APIApplicationCommandOption[],
	path: readonly string[],
	values: Record<string, unknown>,
	resolved: APIInteractionDataResolved,
	commandName: string,
): APIApplicationCommandInteractionDataOption[] {
	const nested = definitions.filter(
		(definition) => definition.type === ApplicationCommandOptionType.Subcommand || definition.type === ApplicationCommandOptionType.SubcommandGroup,
	);
	if (path.length === 0) {
		if (nested.length > 0) throw new ControlError(400, `/${commandName} needs a subcommand: ${nested.map((d) => d.name).join(', ')}`);
		return buildCommandOptions(state, definitions, values, resolved, commandName);
	}
	const [next, ...rest] = path as [string, ...string[]];
	const definition = nested.find((candidate) => candidate.name === next);
	if (!definition) throw new ControlError(400, `/${commandName}: no subcommand "${next}"`);
	const inner = 'options' in definition ? (definition.options ?? []) : [];
	return [
		{
			name: definition.name,
			type: definition.type,
			options: buildNestedOptions(state, inner as APIApplicationCommandOption[], rest, values, resolved, commandName),
		},
	] as APIApplicationCommandInteractionDataOption[];
}
