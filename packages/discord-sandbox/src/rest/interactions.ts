import { InteractionResponseType, InteractionType, MessageFlags, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxInteraction } from '../state/InteractionStore.js';
import type { StoredMessage } from '../state/MessageStore.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';
import { applyEdit, buildMessage, readMessageFields } from './messagePayload.js';
import { readModal } from './readModal.js';
import type { Route } from './Route.js';

/** What a callback type does: the message it created or touched, if any. */
type Callback = (state: SandboxState, interaction: SandboxInteraction, data: unknown) => StoredMessage | null;

/**
 * The callback types the sandbox answers, each with what it does. 6 and 7 act on the message the
 * component is on (for a modal submit, the message of the button that opened the modal); sent for
 * a slash command they change nothing (as before). 9 shows a modal, kept on the interaction until
 * the member submits it (see the control API's `POST /interactions/modal`).
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type}
 */
const CALLBACKS = new Map<number, Callback>([
	[InteractionResponseType.ChannelMessageWithSource, (state, interaction, data) => reply(state, interaction, data, false)],
	[InteractionResponseType.DeferredChannelMessageWithSource, (state, interaction, data) => reply(state, interaction, data, true)],
	[InteractionResponseType.DeferredMessageUpdate, (state, interaction) => updateComponentMessage(state, interaction, null)],
	[InteractionResponseType.UpdateMessage, (state, interaction, data) => updateComponentMessage(state, interaction, data ?? {})],
	[InteractionResponseType.Modal, showModal],
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
			const callback = typeof request.type === 'number' ? CALLBACKS.get(request.type) : undefined;
			if (typeof request.type !== 'number' || !callback) {
				throw DiscordHttpError.invalidField('type', { code: 'BASE_TYPE_CHOICES', message: `Value must be one of {${[...CALLBACKS.keys()].join(', ')}}.` });
			}
			const stored = callback(state, interaction, request.data);
			interaction.acknowledged = true;
			interaction.responses.push({ kind: 'callback', at: state.now(), type: request.type, body, ...(stored ? { messageId: stored.message.id } : {}) });
			if (query.get('with_response') !== 'true') return { status: 204 };
			return {
				status: 200,
				body: {
					interaction: {
						id: interaction.id,
						type: interaction.type,
						...(stored
							? {
									response_message_id: stored.message.id,
									response_message_loading: request.type === InteractionResponseType.DeferredChannelMessageWithSource,
									response_message_ephemeral: stored.ephemeral,
								}
							: {}),
					},
					// Only a reply or an update has a resource: a deferral's message is announced by the
					// `response_message_*` fields alone, as Discord's spec and docs describe.
					...(stored && (request.type === InteractionResponseType.ChannelMessageWithSource || request.type === InteractionResponseType.UpdateMessage)
						? { resource: { type: request.type, message: stored.message } }
						: {}),
				},
			};
		},
	},
];

/** Creates the reply (or the "thinking..." placeholder of a deferral). */
function reply(state: SandboxState, interaction: SandboxInteraction, data: unknown, deferred: boolean): StoredMessage {
	const fields = readMessageFields(data, !deferred, 'data.');
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
	const stored = state.messages.add(message, { ephemeral, interactionId: interaction.id });
	interaction.deferred = deferred;
	interaction.ephemeral = ephemeral;
	interaction.originalMessageId = message.id;
	return stored;
}

/**
 * 6 (DEFERRED_UPDATE_MESSAGE: `data` null) acknowledges and changes nothing yet; 7 (UPDATE_MESSAGE)
 * edits the message the component is on now. Either way `@original` names that message from then
 * on, so a later edit of `@original` edits it.
 */
function updateComponentMessage(state: SandboxState, interaction: SandboxInteraction, data: unknown): StoredMessage | null {
	if (interaction.type === InteractionType.ApplicationCommand || interaction.componentMessageId === null) return null;
	const fields = data === null ? null : readMessageFields(data, false, 'data.');
	const stored = state.messages.get(interaction.componentMessageId);
	if (!stored) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownMessage);
	if (fields) {
		applyEdit(state, state.appById(interaction.applicationId)!, stored, fields, { markEdited: true, context: 'interaction' });
		stored.edits++;
	}
	interaction.deferred = fields === null;
	interaction.ephemeral = stored.ephemeral;
	interaction.originalMessageId = stored.message.id;
	return stored;
}

/**
 * 9 (MODAL): the modal, checked as Discord checks it, shown to the member who acted. Discord does
 * not offer it in answer to a modal submit; it publishes no error code for that, so the sandbox
 * refuses the callback's `type` with 400/50035.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type}
 */
function showModal(_state: SandboxState, interaction: SandboxInteraction, data: unknown): null {
	if (interaction.type === InteractionType.ModalSubmit) {
		throw DiscordHttpError.invalidField('type', { code: 'INTERACTION_CALLBACK_TYPE_INVALID', message: 'A modal cannot be shown in answer to a modal submit.' });
	}
	interaction.modal = readModal(data);
	return null;
}
