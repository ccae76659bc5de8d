import { PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';
import { applyEdit, buildMessage, readMessageFields } from './messagePayload.js';
import { integerQuery, snowflakeQuery } from './queryParams.js';
import type { Route } from './Route.js';

function requireChannel(state: SandboxState, channelId: string | undefined): string {
	if (channelId !== state.guild.channel.id) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownChannel);
	return channelId;
}

function requireMessage(state: SandboxState, channelId: string, messageId: string) {
	const stored = state.messages.get(messageId);
	if (!stored || stored.ephemeral || stored.message.channel_id !== channelId) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownMessage);
	return stored;
}

/**
 * The bot's permissions in the channel, overwrites included: without View Channel the channel is
 * out of reach (403/50001 Missing Access), without the rest 403/50013 Missing Permissions.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-overwrites}
 */
function requirePermission(state: SandboxState, app: SandboxApp, permission: bigint): void {
	const permissions = state.channelPermissions(app.memberIndex);
	if ((permissions & PermissionFlagsBits.ViewChannel) === 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingAccess);
	if ((permissions & permission) !== permission) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}

/**
 * Channel messages: the boss posts progress and edits it for hours; channel messages never
 * expire, unlike interaction tokens.
 *
 * @see {@link https://discord.com/developers/docs/resources/message}
 */
export const messageRoutes: Route[] = [
	{
		method: 'POST',
		path: '/channels/:channel/messages',
		bucket: 'messageCreate',
		auth: 'bot',
		major: 'channel',
		handle({ ctx: { state }, app, params, body }) {
			const channelId = requireChannel(state, params.channel);
			requirePermission(state, app!, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages);
			const fields = readMessageFields(body, true);
			fields.flags = (fields.flags ?? 0) & ~64;
			const message = buildMessage(state, app!, channelId, fields);
			state.messages.add(message);
			return { status: 200, body: message };
		},
	},
	{
		method: 'GET',
		path: '/channels/:channel/messages',
		bucket: 'default',
		auth: 'bot',
		major: 'channel',
		handle({ ctx: { state }, app, params, query }) {
			const channelId = requireChannel(state, params.channel);
			requirePermission(state, app!, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory);
			const limit = integerQuery(query, 'limit', { min: 1, max: 100, fallback: 50 });
			return { status: 200, body: state.messages.list(channelId, { limit, before: snowflakeQuery(query, 'before'), after: snowflakeQuery(query, 'after') }) };
		},
	},
	{
		method: 'GET',
		path: '/channels/:channel/messages/:message',
		bucket: 'default',
		auth: 'bot',
		major: 'channel',
		handle({ ctx: { state }, params }) {
			const channelId = requireChannel(state, params.channel);
			return { status: 200, body: requireMessage(state, channelId, params.message!).message };
		},
	},
	{
		method: 'PATCH',
		path: '/channels/:channel/messages/:message',
		bucket: 'messageEdit',
		auth: 'bot',
		major: 'channel',
		handle({ ctx: { state }, app, params, body }) {
			const channelId = requireChannel(state, params.channel);
			requirePermission(state, app!, PermissionFlagsBits.ViewChannel);
			const stored = requireMessage(state, channelId, params.message!);
			if (stored.message.author.id !== app!.id) throw DiscordHttpError.of(RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser);
			applyEdit(state, app!, stored, readMessageFields(body, false), { markEdited: true, context: 'channel' });
			stored.edits++;
			return { status: 200, body: stored.message };
		},
	},
	{
		method: 'DELETE',
		path: '/channels/:channel/messages/:message',
		bucket: 'default',
		auth: 'bot',
		major: 'channel',
		handle({ ctx: { state }, app, params }) {
			const channelId = requireChannel(state, params.channel);
			const stored = requireMessage(state, channelId, params.message!);
			if (stored.message.author.id !== app!.id) requirePermission(state, app!, PermissionFlagsBits.ManageMessages);
			state.messages.delete(stored.message.id);
			return { status: 204 };
		},
	},
];
