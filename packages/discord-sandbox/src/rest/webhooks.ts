import { MessageFlags, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxInteraction } from '../state/InteractionStore.js';
import type { SandboxState } from '../state/SandboxState.js';
import type { StoredMessage } from '../state/MessageStore.js';
import { DiscordHttpError } from './errors.js';
import { applyEdit, buildMessage, readMessageFields } from './messagePayload.js';
import type { Route, RouteRequest } from './Route.js';

/**
 * The interaction whose token this is. Unknown tokens are an unknown webhook (404/10015); a
 * token past its 15 minutes is refused as Discord does, 401/50027 Invalid Webhook Token.
 */
function requireInteraction({ ctx: { state, options }, params, setApp }: RouteRequest): SandboxInteraction {
	const interaction = state.interactions.byToken(params.token!);
	if (!interaction || interaction.applicationId !== params.app) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownWebhook);
	setApp(interaction.applicationId);
	if (state.now() - interaction.createdAt > options.interactionTokenLifetimeMs) throw DiscordHttpError.of(RESTJSONErrorCodes.InvalidWebhookToken);
	return interaction;
}

/**
 * A message the token may reach: the interaction's own reply and follow-ups, and `@original`,
 * which after callbacks 6 and 7 is the message the pressed component is on.
 */
function requireMessage(state: SandboxState, interaction: SandboxInteraction, messageId: string): StoredMessage {
	const id = messageId === '@original' ? interaction.originalMessageId : messageId;
	const stored = id === null ? undefined : state.messages.get(id);
	if (!stored || (stored.interactionId !== interaction.id && stored.message.id !== interaction.originalMessageId))
		throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownMessage);
	return stored;
}

function isLoading(stored: StoredMessage): boolean {
	return ((stored.message.flags ?? 0) & MessageFlags.Loading) !== 0;
}

/** An edit of the original or a follow-up; the first edit after a deferral fills the placeholder. */
function edit(request: RouteRequest, messageId: string) {
	const { state } = request.ctx;
	const interaction = requireInteraction(request);
	const stored = requireMessage(state, interaction, messageId);
	const filling = isLoading(stored);
	applyEdit(state, state.appById(interaction.applicationId)!, stored, readMessageFields(request.body, false), { markEdited: !filling, context: 'interaction' });
	if (!filling) stored.edits++;
	interaction.responses.push({ kind: 'edit', at: state.now(), body: request.body, messageId: stored.message.id });
	return { status: 200, body: stored.message };
}

function get(request: RouteRequest, messageId: string) {
	const interaction = requireInteraction(request);
	return { status: 200, body: requireMessage(request.ctx.state, interaction, messageId).message };
}

function remove(request: RouteRequest, messageId: string) {
	const { state } = request.ctx;
	const interaction = requireInteraction(request);
	const stored = requireMessage(state, interaction, messageId);
	state.messages.delete(stored.message.id);
	interaction.responses.push({ kind: 'delete', at: state.now(), body: null, messageId: stored.message.id });
	return { status: 204 };
}

const common = { bucket: 'webhook', auth: 'none', major: 'webhook', globalExempt: true } as const;

/**
 * Interaction follow-ups through the webhook routes (`/webhooks/{application}/{token}`), which
 * need no Authorization header and aren't bound by the global limit.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages}
 */
export const webhookRoutes: Route[] = [
	{ ...common, method: 'GET', path: '/webhooks/:app/:token/messages/@original', handle: (request) => get(request, '@original') },
	{ ...common, method: 'PATCH', path: '/webhooks/:app/:token/messages/@original', handle: (request) => edit(request, '@original') },
	{ ...common, method: 'DELETE', path: '/webhooks/:app/:token/messages/@original', handle: (request) => remove(request, '@original') },
	{ ...common, method: 'GET', path: '/webhooks/:app/:token/messages/:message', handle: (request) => get(request, request.params.message!) },
	{ ...common, method: 'PATCH', path: '/webhooks/:app/:token/messages/:message', handle: (request) => edit(request, request.params.message!) },
	{ ...common, method: 'DELETE', path: '/webhooks/:app/:token/messages/:message', handle: (request) => remove(request, request.params.message!) },
	{
		...common,
		method: 'POST',
		path: '/webhooks/:app/:token',
		handle(request) {
			const { state } = request.ctx;
			const interaction = requireInteraction(request);
			// A follow-up needs an acknowledged interaction: before that, the webhook doesn't exist yet.
			if (!interaction.acknowledged) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownWebhook);
			const fields = readMessageFields(request.body, true);
			const original = interaction.originalMessageId === null ? undefined : state.messages.get(interaction.originalMessageId);
			let stored: StoredMessage;
			if (original && isLoading(original)) {
				// Right after a deferral, the first follow-up replaces the "thinking..." message.
				applyEdit(state, state.appById(interaction.applicationId)!, original, fields, { markEdited: false, context: 'interaction' });
				stored = original;
			} else {
				const ephemeral = ((fields.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
				const message = buildMessage(state, state.appById(interaction.applicationId)!, interaction.channelId, fields, interaction);
				stored = state.messages.add(message, { ephemeral, interactionId: interaction.id });
			}
			interaction.responses.push({ kind: 'followup', at: state.now(), body: request.body, messageId: stored.message.id });
			return request.query.get('wait') === 'true' ? { status: 200, body: stored.message } : { status: 204 };
		},
	},
];
