import {
	InteractionType,
	MessageFlags,
	MessageReferenceType,
	MessageType,
	RESTJSONErrorCodes,
	ApplicationIntegrationType,
	type APIAllowedMentions,
	type APIEmbed,
	type APIMessage,
	type APIMessageTopLevelComponent,
	type APIUser,
} from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import type { SandboxInteraction } from '../state/InteractionStore.js';
import type { StoredMessage } from '../state/MessageStore.js';
import { toDiscordTimestamp } from '../state/toDiscordTimestamp.js';
import { DiscordHttpError } from './errors.js';
import { numberComponents } from './numberComponents.js';
import { readAllowedMentions } from './readAllowedMentions.js';
import { resolveMentions, type MentionContext } from './resolveMentions.js';
import { validateComponents } from './validateComponents.js';

/** The message fields a create or edit may set; absent means "leave as is" on an edit. */
export interface MessageFields {
	content?: string;
	embeds?: APIEmbed[];
	components?: APIMessageTopLevelComponent[];
	flags?: number;
	/** The request's `allowed_mentions`; absent means the context's default. */
	allowedMentions?: APIAllowedMentions;
}

/** Flags a bot may set itself; Discord ignores or rejects the others. */
const SETTABLE_FLAGS = MessageFlags.SuppressEmbeds | MessageFlags.Ephemeral | MessageFlags.SuppressNotifications | MessageFlags.IsComponentsV2;

/**
 * Reads and checks a message body (create or edit), with Discord's 50035 errors for what it
 * rejects; `requireContent` turns an empty create into 50006. `prefix` is where the message sits
 * in the request, as the errors name it: `data.` in an interaction callback.
 *
 * @see {@link https://discord.com/developers/docs/resources/message#create-message}
 */
export function readMessageFields(body: unknown, requireContent: boolean, prefix = ''): MessageFields {
	const source = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
	const fields: MessageFields = {};
	if (source.content !== undefined && source.content !== null) {
		if (typeof source.content !== 'string') throw DiscordHttpError.invalidField(`${prefix}content`, { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
		if ([...source.content].length > 2000)
			throw DiscordHttpError.invalidField(`${prefix}content`, { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' });
		fields.content = source.content;
	} else if (source.content === null) fields.content = '';
	if (source.embeds !== undefined && source.embeds !== null) {
		if (!Array.isArray(source.embeds)) throw DiscordHttpError.invalidField(`${prefix}embeds`, { code: 'BASE_TYPE_LIST', message: 'Must be a list.' });
		if (source.embeds.length > 10)
			throw DiscordHttpError.invalidField(`${prefix}embeds`, { code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' });
		fields.embeds = (source.embeds as APIEmbed[]).map((embed) => ({ type: 'rich', ...embed }) as APIEmbed);
	} else if (source.embeds === null) fields.embeds = [];
	if (source.components !== undefined && source.components !== null) {
		if (!Array.isArray(source.components)) throw DiscordHttpError.invalidField(`${prefix}components`, { code: 'BASE_TYPE_LIST', message: 'Must be a list.' });
		validateComponents(source.components, typeof source.flags === 'number' ? source.flags : 0, prefix);
		fields.components = numberComponents(source.components as APIMessageTopLevelComponent[]);
	} else if (source.components === null) fields.components = [];
	if (source.flags !== undefined && source.flags !== null) {
		if (typeof source.flags !== 'number')
			throw DiscordHttpError.invalidField(`${prefix}flags`, { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(source.flags)}" is not int.` });
		fields.flags = source.flags & SETTABLE_FLAGS;
	}
	const allowedMentions = readAllowedMentions(source.allowed_mentions, prefix);
	if (allowedMentions) fields.allowedMentions = allowedMentions;
	if (requireContent && !fields.content && !fields.embeds?.length && !fields.components?.length)
		throw DiscordHttpError.of(RESTJSONErrorCodes.CannotSendAnEmptyMessage);
	return fields;
}

/**
 * A full message object, as Discord returns it: what discord.js needs to build a `Message`.
 * With `interaction`, it is an interaction's reply or follow-up (see `interactionFields`). Its
 * mentions are computed from its text and `allowed_mentions` (see `resolveMentions`).
 */
export function buildMessage(state: SandboxState, app: SandboxApp, channelId: string, fields: MessageFields, interaction?: SandboxInteraction): APIMessage {
	const author = state.userJson(app.memberIndex);
	const message: APIMessage = {
		id: state.snowflakes.next().toString(),
		channel_id: channelId,
		author,
		content: fields.content ?? '',
		timestamp: toDiscordTimestamp(state.now()),
		edited_timestamp: null,
		tts: false,
		...resolveMentions(
			state,
			app,
			{ content: fields.content ?? '', components: fields.components ?? [], flags: fields.flags ?? 0 },
			fields.allowedMentions,
			interaction ? 'interaction' : 'channel',
		),
		attachments: [],
		embeds: fields.embeds ?? [],
		pinned: false,
		type: MessageType.Default,
		flags: (fields.flags ?? 0) as MessageFlags,
		components: fields.components ?? [],
	};
	return interaction ? Object.assign(message, interactionFields(state, app, interaction)) : message;
}

/**
 * What marks a message as an interaction's: sent through the app's webhook, with
 * `interaction_metadata` (and `original_response_message_id` on a follow-up). A slash command's
 * answer is type 20 with the deprecated `interaction` too; a component's is a reply (type 19) to
 * the message the component is on, with a `message_reference` instead, "as components always
 * exist on preexisting messages". A modal submit's answer is as its opener's: a reply to the
 * button's message, or type 20 naming the command that opened it; its metadata is type 5.
 *
 * @see {@link https://discord.com/developers/docs/resources/message#message-interaction-metadata-object}
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#message-interaction-object}
 */
function interactionFields(state: SandboxState, app: SandboxApp, interaction: SandboxInteraction): Partial<APIMessage> {
	const fromWebhook = { webhook_id: app.id, application_id: app.id };
	const interaction_metadata = interactionMetadata(state, app, interaction) as unknown as APIMessage['interaction_metadata'];
	if (interaction.type !== InteractionType.ApplicationCommand && interaction.componentMessageId !== null) {
		const referenced = state.messages.get(interaction.componentMessageId)?.message;
		return {
			...fromWebhook,
			type: MessageType.Reply,
			interaction_metadata,
			message_reference: {
				type: MessageReferenceType.Default,
				channel_id: interaction.channelId,
				guild_id: interaction.guildId,
				message_id: interaction.componentMessageId,
			},
			referenced_message: referenced ? { ...structuredClone(referenced), referenced_message: null } : null,
		};
	}
	const origin = commandOf(state, interaction);
	return {
		...fromWebhook,
		type: MessageType.ChatInputCommand,
		interaction_metadata,
		interaction: { id: origin.id, type: InteractionType.ApplicationCommand, name: origin.command ?? '', user: userOf(state, app, origin) },
	};
}

/**
 * The message's `interaction_metadata`: a command's, a button's (with the message it is on), or a
 * modal submit's, which names the interaction that opened the modal in
 * `triggering_interaction_metadata`.
 */
function interactionMetadata(state: SandboxState, app: SandboxApp, interaction: SandboxInteraction): Record<string, unknown> {
	const base = {
		id: interaction.id,
		user: userOf(state, app, interaction),
		authorizing_integration_owners: { [ApplicationIntegrationType.GuildInstall]: interaction.guildId },
		...(interaction.originalMessageId === null ? {} : { original_response_message_id: interaction.originalMessageId }),
	};
	if (interaction.type === InteractionType.MessageComponent) {
		return { ...base, type: InteractionType.MessageComponent, interacted_message_id: interaction.componentMessageId };
	}
	const opener = interaction.modalOf === undefined ? undefined : state.interactions.get(interaction.modalOf);
	if (interaction.type === InteractionType.ModalSubmit && opener) {
		return { ...base, type: InteractionType.ModalSubmit, triggering_interaction_metadata: interactionMetadata(state, app, opener) };
	}
	return { ...base, type: InteractionType.ApplicationCommand };
}

/** The slash command at the start of a chain of modals. */
function commandOf(state: SandboxState, interaction: SandboxInteraction): SandboxInteraction {
	const opener = interaction.modalOf === undefined ? undefined : state.interactions.get(interaction.modalOf);
	return opener ? commandOf(state, opener) : interaction;
}

function userOf(state: SandboxState, app: SandboxApp, interaction: SandboxInteraction): APIUser {
	const userIndex = state.members.indexOf(BigInt(interaction.userId));
	return state.userJson(userIndex === -1 ? app.memberIndex : userIndex);
}

/**
 * Applies an edit in place: the fields given replace the old ones. An edit of the text (the
 * content, or a Components V2 message's components) computes the mentions again from scratch,
 * with that request's `allowed_mentions` or, without one, the context's default: "without regard
 * to whether or not an `allowed_mentions` was present in the request that originally created the
 * message". `app` is who edits (the author, or the app whose interaction updates its message).
 *
 * @see {@link https://discord.com/developers/docs/resources/message#edit-message}
 */
export function applyEdit(
	state: SandboxState,
	app: SandboxApp,
	stored: StoredMessage,
	fields: MessageFields,
	options: { markEdited: boolean; context: MentionContext },
): void {
	const { message } = stored;
	if (fields.content !== undefined) message.content = fields.content;
	if (fields.embeds !== undefined) message.embeds = fields.embeds;
	if (fields.components !== undefined) message.components = fields.components;
	if (fields.flags !== undefined)
		message.flags = (((message.flags ?? 0) & ~MessageFlags.SuppressEmbeds) | (fields.flags & MessageFlags.SuppressEmbeds)) as MessageFlags;
	message.flags = ((message.flags ?? 0) & ~MessageFlags.Loading) as MessageFlags;
	const componentsV2 = ((message.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0;
	if (fields.content !== undefined || (componentsV2 && fields.components !== undefined)) {
		const mentions = resolveMentions(
			state,
			app,
			{ content: message.content, components: message.components ?? [], flags: message.flags ?? 0 },
			fields.allowedMentions,
			options.context,
		);
		Object.assign(message, mentions);
		stored.everMentioned.note(mentions);
	}
	if (options.markEdited) message.edited_timestamp = toDiscordTimestamp(state.now());
}
