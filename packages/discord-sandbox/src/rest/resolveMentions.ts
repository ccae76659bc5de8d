import {
	AllowedMentionsTypes,
	ComponentType,
	MessageFlags,
	PermissionFlagsBits,
	type APIAllowedMentions,
	type APIMessage,
	type APIMessageTopLevelComponent,
} from 'discord-api-types/v10';
import { computeChannelPermissions, computePermissions } from '../state/permissions.js';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { walkComponents } from './walkComponents.js';

/** The three fields of a message object that say whom it pings. */
export type MessageMentions = Pick<APIMessage, 'mentions' | 'mention_roles' | 'mention_everyone'>;

/**
 * Where a message comes from, which decides what an absent `allowed_mentions` means: a bot's
 * channel message parses every kind, an interaction's response or follow-up (a webhook message)
 * only users.
 *
 * @see {@link https://discord.com/developers/docs/resources/message#allowed-mentions-object-default-settings-for-allowed-mentions}
 */
export type MentionContext = 'channel' | 'interaction';

const DEFAULTS: Record<MentionContext, APIAllowedMentions> = {
	channel: { parse: [AllowedMentionsTypes.User, AllowedMentionsTypes.Role, AllowedMentionsTypes.Everyone] },
	interaction: { parse: [AllowedMentionsTypes.User] },
};

/**
 * Code spans and blocks show mentions as text, and Discord does not ping for them (Oldcord,
 * a Discord reimplementation, lists pinging inside backticks as its own bug, oldcordapp/Oldcord #53).
 */
const CODE = /```[\s\S]*?```|``[\s\S]*?``|`[^`]*`/g;
const USER = /<@!?(\d{1,20})>/g;
const ROLE = /<@&(\d{1,20})>/g;
const EVERYONE = /@(?:everyone|here)/;

/**
 * What a message pings, computed as Discord does from its text: `content`, plus the text display
 * components of a Components V2 message (embeds never ping). A mention counts only when it is in
 * the text *and* `allowed` lets it through (`parse`, or its id in `users` / `roles`; absent means
 * the context's default):
 *
 * - `<@id>` / `<@!id>`: the user, when such a user exists, always (as a user object);
 * - `<@&id>`: the guild's role, when it is `mentionable` or the author has Mention Everyone;
 * - `@everyone` / `@here`: `mention_everyone`, only when the author has Mention Everyone.
 *
 * The author's permission is the bot's in the channel, overwrites included, for its channel
 * messages and, since 2022-08-03, for its interaction responses and follow-ups too ("calculated
 * based on the permissions its granted, including any overwrites"; before, only `@everyone`'s
 * counted, which is still what an app without a bot in the guild gets). `replied_user` changes
 * nothing here: no message the sandbox stores replies to another user's message.
 *
 * @see {@link https://discord.com/developers/docs/resources/message#allowed-mentions-object}
 * @see {@link https://discord.com/developers/docs/change-log} (2022-06-29, "Changes to Bot Permissions for Interactions and Webhooks")
 */
export function resolveMentions(
	state: SandboxState,
	app: SandboxApp,
	message: { content: string; components: readonly APIMessageTopLevelComponent[]; flags: number },
	allowed: APIAllowedMentions | undefined,
	context: MentionContext,
): MessageMentions {
	const text = messageText(message).replace(CODE, '');
	const { parse = [], users = [], roles = [] } = allowed ?? DEFAULTS[context];
	const mentionEveryone = (authorPermissions(state, app) & PermissionFlagsBits.MentionEveryone) !== 0n;

	const userIds = new Set<string>();
	for (const [, id] of text.matchAll(USER)) if (parse.includes(AllowedMentionsTypes.User) || users.includes(id!)) userIds.add(id!);
	const mentioned = [...userIds].flatMap((id) => {
		const index = userIndex(state, BigInt(id));
		return index === -1 ? [] : [state.userJson(index)];
	});

	const roleIds = new Set<string>();
	for (const [, id] of text.matchAll(ROLE)) {
		const role = state.rolesById.get(id!);
		if (!role || role.id === state.guildId) continue;
		if (!parse.includes(AllowedMentionsTypes.Role) && !roles.includes(id!)) continue;
		if (role.mentionable || mentionEveryone) roleIds.add(id!);
	}

	return {
		mentions: mentioned,
		mention_roles: [...roleIds],
		mention_everyone: mentionEveryone && parse.includes(AllowedMentionsTypes.Everyone) && EVERYONE.test(text),
	};
}

/** The text mentions are read from: `content`, and with IS_COMPONENTS_V2 every text display's. */
function messageText(message: { content: string; components: readonly APIMessageTopLevelComponent[]; flags: number }): string {
	const parts = [message.content];
	if ((message.flags & MessageFlags.IsComponentsV2) !== 0) {
		walkComponents(message.components, (node) => {
			if (node.type === ComponentType.TextDisplay && typeof node.content === 'string') parts.push(node.content);
		});
	}
	return parts.join('\n');
}

/** The bot's permissions in the channel; `@everyone`'s for an app whose bot left the guild. */
function authorPermissions(state: SandboxState, app: SandboxApp): bigint {
	if (state.inGuild(app)) return state.channelPermissions(app.memberIndex);
	const everyone = computePermissions([], state.rolesById, state.guildId, false);
	return computeChannelPermissions(everyone, { id: '0', roleIds: [] }, state.guildId, state.channelJson().permission_overwrites ?? []);
}

/** Any user the sandbox knows, members who left included (they are still Discord users); -1 if none. */
function userIndex(state: SandboxState, id: bigint): number {
	const index = state.members.lowerBound(id);
	return index < state.members.length && state.members.idAt(index) === id ? index : -1;
}
