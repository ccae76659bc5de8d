import { InteractionResponseType, InteractionType, MessageFlags, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxInteraction } from '../state/InteractionStore.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';
import { buildMessage, readMessageFields } from './messagePayload.js';
import type { Route } from './Route.js';

const ACCEPTED_TYPES = new Set<number>([
	InteractionResponseType.ChannelMessageWithSource,
	InteractionResponseType.DeferredChannelMessageWithSource,
	InteractionResponseType.DeferredMessageUpdate,
	InteractionResponseType.UpdateMessage,
	InteractionResponseType.Modal,
]);

/**
 * The initial response to an interaction: once, within the deadline (3 s on Discord), without
 * an Authorization header.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response}
 */
export const interactionRoutes: Route[] = [
	{
		method: 'POST',
		path: '/interactions/:interaction/:token/callback',
		bucket: 'interactionCallback',
		auth: 'none',
		globalExempt: true,
		handle({ ctx: { state, options }, params, query, body, setApp }) {
			const interaction = state.interactions.get(params.interaction!);
			if (!interaction || interaction.token !== params.token) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownInteraction);
			setApp(interaction.applicationId);
			if (interaction.acknowledged) throw DiscordHttpError.of(RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged);
			// A late answer finds the token already invalidated.
			if (state.now() - interaction.createdAt > options.interactionResponseDeadlineMs) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownInteraction);

			const request = (body ?? {}) as { type?: unknown; data?: unknown };
			if (typeof request.type !== 'number' || !ACCEPTED_TYPES.has(request.type)) {
				throw DiscordHttpError.invalidField('type', { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${[...ACCEPTED_TYPES].join(', ')}}.` });
			}
			const message = respond(state, interaction, request.type, request.data);
			interaction.acknowledged = true;
			interaction.responses.push({ kind: 'callback', at: state.now(), type: request.type, body, ...(message ? { messageId: message.id } : {}) });
			if (query.get('with_response') !== 'true') return { status: 204 };
			return {
				status: 200,
				body: {
					interaction: {
						id: interaction.id,
						type: InteractionType.ApplicationCommand,
						...(message
							? {
									response_message_id: message.id,
									response_message_loading: request.type === InteractionResponseType.DeferredChannelMessageWithSource,
									response_message_ephemeral: interaction.ephemeral,
								}
							: {}),
					},
					// Only a reply creates a resource: a deferral's placeholder is announced by the
					// `response_message_*` fields alone, as Discord's spec and docs describe.
					...(message && request.type === InteractionResponseType.ChannelMessageWithSource ? { resource: { type: request.type, message } } : {}),
				},
			};
		},
	},
];

/** Creates the reply (or the "thinking..." placeholder of a deferral); other types create nothing. */
function respond(state: SandboxState, interaction: SandboxInteraction, type: number, data: unknown) {
	if (type !== InteractionResponseType.ChannelMessageWithSource && type !== InteractionResponseType.DeferredChannelMessageWithSource) return null;
	const deferred = type === InteractionResponseType.DeferredChannelMessageWithSource;
	const fields = readMessageFields(data, !deferred);
	const ephemeral = ((fields.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
	if (deferred) {
		// With a deferral only the ephemeral flag counts; the content comes with the edit.
		fields.flags = (ephemeral ? MessageFlags.Ephemeral : 0) | MessageFlags.Loading;
		delete fields.content;
		delete fields.embeds;
		delete fields.components;
	}
	const app = state.appById(interaction.applicationId)!;
	const message = buildMessage(state, app, interaction.channelId, fields, interaction);
	state.messages.add(message, { ephemeral, interactionId: interaction.id });
	interaction.deferred = deferred;
	interaction.ephemeral = ephemeral;
	interaction.originalMessageId = message.id;
	return message;
}
