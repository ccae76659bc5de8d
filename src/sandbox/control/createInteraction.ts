import { randomBytes } from 'node:crypto';
import {
	ApplicationCommandOptionType,
	ApplicationCommandType,
	ApplicationIntegrationType,
	GatewayDispatchEvents,
	InteractionContextType,
	InteractionType,
	Locale,
	type APIApplicationCommandInteractionDataOption,
	type APIApplicationCommandOption,
	type APIChatInputApplicationCommandGuildInteraction,
	type APIInteractionDataResolved,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { buildCommandOptions } from './buildCommandOptions.js';
import { ControlError } from './ControlError.js';

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

/** Discord's upload limit for a guild without boosts, sent in every interaction. */
const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

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
	const candidates = state.commands.findByName(state.guildId, name).filter((command) => !request.applicationId || command.application_id === request.applicationId);
	const command = candidates[0];
	if (!command) {
		const registered = state.apps.flatMap((app) => state.commands.list(app.id, state.guildId).map((c) => `/${c.name}`));
		throw new ControlError(404, `no command /${name} is registered in guild ${state.guildId} (registered: ${registered.join(', ') || 'none'})`);
	}
	const app = state.appById(command.application_id)!;

	const resolved: APIInteractionDataResolved = {};
	const options = buildNestedOptions(state, command.options ?? [], path, request.options ?? {}, resolved, request.command.trim());
	const id = state.snowflakes.next().toString();
	// Shaped like Discord's: base64 of `interaction:<id>:<secret>`.
	const token = Buffer.from(`interaction:${id}:${randomBytes(48).toString('base64url')}`).toString('base64url');
	const member = state.memberJson(userIndex);
	const channel = state.channelJson();
	const payload: APIChatInputApplicationCommandGuildInteraction = {
		id,
		application_id: app.id,
		type: InteractionType.ApplicationCommand,
		data: {
			id: command.id,
			name: command.name,
			type: ApplicationCommandType.ChatInput,
			guild_id: state.guildId,
			...(options.length > 0 ? { options } : {}),
			...(Object.keys(resolved).length > 0 ? { resolved } : {}),
		},
		guild: { id: state.guildId, locale: Locale.EnglishUS, features: [] },
		guild_id: state.guildId,
		// Permissions in the channel the command was used in, overwrites included, as Discord sends them.
		channel: { ...channel, permissions: state.channelPermissions(userIndex).toString() } as APIChatInputApplicationCommandGuildInteraction['channel'],
		channel_id: channel.id,
		member: { ...member, permissions: state.channelPermissions(userIndex).toString() },
		token,
		version: 1,
		app_permissions: state.channelPermissions(app.memberIndex).toString(),
		locale: Locale.EnglishUS,
		guild_locale: Locale.EnglishUS,
		entitlements: [],
		authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: state.guildId },
		context: InteractionContextType.Guild,
		attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
	};
	state.interactions.add({
		id,
		token,
		applicationId: app.id,
		guildId: state.guildId,
		channelId: channel.id,
		userId: member.user.id,
		command: [name, ...path].join(' '),
		createdAt: state.now(),
		acknowledged: false,
		deferred: false,
		ephemeral: false,
		originalMessageId: null,
		responses: [],
		payload,
	});
	state.events.emit({ guildId: state.guildId, t: GatewayDispatchEvents.InteractionCreate, d: payload, intent: null, appId: app.id });
	return { id };
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
		{ name: definition.name, type: definition.type, options: buildNestedOptions(state, inner as APIApplicationCommandOption[], rest, values, resolved, commandName) },
	] as APIApplicationCommandInteractionDataOption[];
}
