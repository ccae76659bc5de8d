import { randomBytes } from 'node:crypto';
import {
	ApplicationIntegrationType,
	GatewayDispatchEvents,
	InteractionContextType,
	Locale,
	type APIInteraction,
	type APIMessageComponentGuildInteraction,
} from 'discord-api-types/v10';
import type { SandboxInteraction } from '../state/InteractionStore.js';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';

/** Discord's upload limit for a guild without boosts, sent in every interaction. */
export const ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024;

/** The fields every guild interaction carries, whatever its type and data. */
export type InteractionEnvelope = Omit<APIMessageComponentGuildInteraction, 'type' | 'data' | 'message'>;

/**
 * A new interaction's id and token, and what Discord sends with every interaction in the
 * sandbox's guild: the member who acted and the channel, each with the member's permissions there
 * (overwrites included), the app's permissions, locales, entitlements, the guild install that
 * authorised it, and the context.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure}
 */
export function interactionEnvelope(state: SandboxState, app: SandboxApp, userIndex: number): InteractionEnvelope {
	const id = state.snowflakes.next().toString();
	const permissions = state.channelPermissions(userIndex).toString();
	const channel = state.channelJson();
	return {
		id,
		application_id: app.id,
		guild: { id: state.guildId, locale: Locale.EnglishUS, features: [] },
		guild_id: state.guildId,
		channel: { ...channel, permissions } as APIInteraction['channel'] & object,
		channel_id: channel.id,
		member: { ...state.memberJson(userIndex), permissions },
		// Shaped like Discord's: base64 of `interaction:<id>:<secret>`.
		token: Buffer.from(`interaction:${id}:${randomBytes(48).toString('base64url')}`).toString('base64url'),
		version: 1,
		app_permissions: state.channelPermissions(app.memberIndex).toString(),
		locale: Locale.EnglishUS,
		guild_locale: Locale.EnglishUS,
		entitlements: [],
		authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: state.guildId },
		context: InteractionContextType.Guild,
		attachment_size_limit: ATTACHMENT_SIZE_LIMIT,
	};
}

/** What sets one interaction apart when it is recorded: its kind and what it was about. */
export type InteractionOrigin = Pick<SandboxInteraction, 'type' | 'channelId' | 'command' | 'customId' | 'componentMessageId' | 'payload' | 'modalOf'>;

/**
 * Records a new, unanswered interaction and sends INTERACTION_CREATE to its application only,
 * as Discord does; the 3-second and 15-minute clocks start now.
 */
export function dispatchInteraction(state: SandboxState, app: SandboxApp, envelope: InteractionEnvelope, origin: InteractionOrigin): { id: string } {
	const { id, token } = envelope;
	state.interactions.add({
		id,
		token,
		applicationId: app.id,
		guildId: state.guildId,
		userId: envelope.member.user.id,
		createdAt: state.now(),
		acknowledged: false,
		deferred: false,
		ephemeral: false,
		originalMessageId: null,
		responses: [],
		...origin,
	});
	state.events.emit({ guildId: state.guildId, t: GatewayDispatchEvents.InteractionCreate, d: origin.payload, intent: null, appId: app.id });
	return { id };
}
