import type { APIMessage } from 'discord-api-types/v10';
import type { ControlMember } from '../control/memberRoutes.js';
import type { RequestLogEntry } from '../rest/RequestLog.js';
import type { AttachmentJson } from '../state/AttachmentStore.js';
import type { MentionHistoryJson } from '../state/MentionHistory.js';

export type { AttachmentJson as ControlAttachment, ControlMember };
/** One entry of the sandbox's request log. */
export type SandboxRequest = RequestLogEntry;

/** Permission bits as the control API takes them: a decimal string, a number, or flag names. */
export type ControlPermissions = string | number | readonly string[];

export interface ControlRole {
	id: string;
	name: string;
	position: number;
	permissions: string;
	/** Whether anyone may ping it; otherwise only members with Mention Everyone can. */
	mentionable: boolean;
	/** A bot's or an integration's role, which nobody can give, take or delete. */
	managed: boolean;
}

export interface ControlInteraction {
	id: string;
	/** 2 for a slash command, 3 for a button press, 5 for a modal submitted. */
	type: number;
	/** The command as typed, for a slash command; null for a button. */
	command: string | null;
	/** For a button: its custom_id and the message it is on; for a modal submitted, the modal's custom_id. */
	customId: string | null;
	componentMessageId: string | null;
	userId: string;
	acknowledged: boolean;
	deferred: boolean;
	ephemeral: boolean;
	/** The message `@original` edits: the reply, or the button's message after an update. */
	originalMessageId: string | null;
	responses: Array<{ kind: string; at: string | number; type?: number; body?: unknown; messageId?: string }>;
	/** The modal the app answered with (callback 9), until the member submits it. */
	modal?: ControlModal;
	/** For a modal submitted: the interaction that showed the modal. */
	modalOf?: string;
}

/** A modal open on an interaction, as the member sees it. */
export interface ControlModal {
	customId: string;
	title: string;
	parts: Array<{
		kind: 'label' | 'row' | 'text';
		id: number;
		input?: { customId: string; id: number; style: number; required: boolean; minLength: number; maxLength: number };
	}>;
}

/**
 * A message as the control API shows it: Discord's message object (its mentions computed as
 * Discord computes them) plus what the sandbox knows of it.
 */
export interface ControlMessage extends Pick<APIMessage, 'author' | 'mentions' | 'mention_roles' | 'mention_everyone'> {
	id: string;
	content: string;
	embeds: unknown[];
	/** Action rows and their buttons, as Discord returns them (with ids). */
	components: Array<{
		type: number;
		id: number;
		components?: Array<{ type: number; id: number; custom_id?: string; label?: string; style?: number; disabled?: boolean; url?: string }>;
	}>;
	type: number;
	flags: number;
	edited_timestamp: string | null;
	/** How often it was edited after being posted. */
	edits: number;
	ephemeral: boolean;
	deleted: boolean;
	/** The interaction it answers, when it does. */
	interactionId: string | null;
	/** Whom it mentioned at any time: `mentions` and the rest hold only what the latest edit left. */
	everMentioned: MentionHistoryJson;
}

/**
 * A small typed client of the sandbox's control API (`/_sandbox`), for the demo, the benchmark
 * and the tests. It speaks HTTP only (and borrows the sandbox's types), so the bot and the
 * sandbox stay apart.
 */
export class SandboxControl {
	constructor(readonly controlUrl: string) {}

	async #call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.controlUrl}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? null : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox ${method} ${path} answered ${response.status}: ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	}

	/**
	 * Invokes a slash command as `userId`; returns the interaction id. An attachment option takes
	 * the file itself: `{filename, content}` (text), or `{filename, contentBase64, contentType?}`.
	 */
	async invoke(guildId: string, userId: string, command: string, options: Record<string, unknown> = {}, channelId?: string): Promise<string> {
		const { id } = await this.#call<{ id: string }>('POST', '/interactions', { guildId, userId, command, options, channelId });
		return id;
	}

	/**
	 * Presses the button `customId` on a bot's message as `userId`; returns the interaction id.
	 * Fails (400) for a button that isn't there or is disabled, as Discord's client can't press it.
	 */
	async pressButton(guildId: string, userId: string, channelId: string, messageId: string, customId: string): Promise<string> {
		const { id } = await this.#call<{ id: string }>('POST', '/interactions/component', { guildId, userId, channelId, messageId, customId });
		return id;
	}

	/**
	 * Submits the modal an app answered interaction `interactionId` with, as the member who got it,
	 * with each text input's text by its custom_id; returns the submit's interaction id. Fails (400)
	 * with no modal open, or values Discord's client would not submit.
	 */
	async submitModal(interactionId: string, values: Record<string, string>): Promise<string> {
		const { id } = await this.#call<{ id: string }>('POST', '/interactions/modal', { interactionId, values });
		return id;
	}

	/** Waits until the app has answered interaction `id` with a modal, and returns it. */
	async waitForModal(id: string, timeoutMs = 15_000): Promise<ControlModal> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const interaction = await this.interaction(id);
			if (interaction.modal) return interaction.modal;
			if (Date.now() > deadline)
				throw new Error(`interaction ${id} got no modal (its responses: ${JSON.stringify(interaction.responses.map((response) => response.type))})`);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	/** Every file attached to a slash command, oldest first, with how often its URL was fetched. */
	attachments(): Promise<AttachmentJson[]> {
		return this.#call('GET', '/attachments');
	}

	interaction(id: string): Promise<ControlInteraction> {
		return this.#call('GET', `/interactions/${id}`);
	}

	/** Waits until the interaction has received at least `count` responses. */
	async waitForResponses(id: string, count = 1, timeoutMs = 15_000): Promise<ControlInteraction> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const interaction = await this.interaction(id);
			if (interaction.responses.length >= count) return interaction;
			if (Date.now() > deadline) {
				const what = interaction.command === null ? `the button "${interaction.customId}"` : `/${interaction.command}`;
				throw new Error(`${what} got ${interaction.responses.length} responses, expected ${count}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	members(guildId: string): Promise<ControlMember[]> {
		return this.#call('GET', `/guilds/${guildId}/members`);
	}

	addMembers(guildId: string, count: number): Promise<{ ids: string[] }> {
		return this.#call('POST', `/guilds/${guildId}/members`, { count });
	}

	/**
	 * Stages a raid: `count` accounts made minutes ago joining within `windowMs` (default 10 min),
	 * named from `names` (default `free nitro {n}`), among `realJoiners` with older accounts.
	 */
	stageRaid(
		guildId: string,
		raid: { count: number; realJoiners?: number; windowMs?: number; accountAgeMs?: number; names?: string; seed?: number },
	): Promise<{ raidIds: string[]; realIds: string[] }> {
		return this.#call('POST', `/guilds/${guildId}/raid`, raid);
	}

	/**
	 * Stages a join burst: `count` accounts made at most `accountAgeMs` (default a day) ago join
	 * over the next `windowMs` of the sandbox's clock, each at its own moment with its
	 * GUILD_MEMBER_ADD. Answers at once with the plan: the ids in join order, and when each is due.
	 */
	stageJoinBurst(
		guildId: string,
		burst: { count: number; windowMs: number; accountAgeMs?: number; seed?: number },
	): Promise<{ ids: string[]; joinsAt: number[] }> {
		return this.#call('POST', `/guilds/${guildId}/join-burst`, burst);
	}

	removeMember(guildId: string, userId: string): Promise<unknown> {
		return this.#call('DELETE', `/guilds/${guildId}/members/${userId}`);
	}

	/** The owner gives the server to `userId` (GUILD_UPDATE with the new `owner_id`). */
	transferOwnership(guildId: string, userId: string): Promise<{ ownerId: string }> {
		return this.#call('PUT', `/guilds/${guildId}/owner`, { userId });
	}

	setOwnNick(guildId: string, userId: string, nick: string | null): Promise<unknown> {
		return this.#call('PATCH', `/guilds/${guildId}/members/${userId}`, { nick });
	}

	/**
	 * A new role at `position` (default 1); `permissions` as a decimal string, a number or flag
	 * names; `mentionable` default false.
	 */
	createRole(guildId: string, role: { name: string; permissions?: ControlPermissions; position?: number; mentionable?: boolean }): Promise<ControlRole> {
		return this.#call('POST', `/guilds/${guildId}/roles`, role);
	}

	editRole(guildId: string, roleId: string, changes: { permissions?: ControlPermissions; position?: number; mentionable?: boolean }): Promise<ControlRole> {
		return this.#call('PATCH', `/guilds/${guildId}/roles/${roleId}`, changes);
	}

	/**
	 * The owner deletes a role: it leaves every member (GUILD_ROLE_DELETE, no GUILD_MEMBER_UPDATE,
	 * as on Discord). Fails (400) for `@everyone` and managed roles.
	 */
	deleteRole(guildId: string, roleId: string): Promise<{ deleted: string }> {
		return this.#call('DELETE', `/guilds/${guildId}/roles/${roleId}`);
	}

	addMemberRole(guildId: string, userId: string, roleId: string): Promise<ControlMember> {
		return this.#call('PUT', `/guilds/${guildId}/members/${userId}/roles/${roleId}`);
	}

	removeMemberRole(guildId: string, userId: string, roleId: string): Promise<ControlMember> {
		return this.#call('DELETE', `/guilds/${guildId}/members/${userId}/roles/${roleId}`);
	}

	/** Sets the channel's overwrite for a role (`type` 0) or a member (`type` 1). */
	setChannelPermission(channelId: string, id: string, overwrite: { type: 0 | 1; allow?: ControlPermissions; deny?: ControlPermissions }): Promise<unknown> {
		return this.#call('PUT', `/channels/${channelId}/permissions/${id}`, overwrite);
	}

	deleteChannelPermission(channelId: string, id: string): Promise<unknown> {
		return this.#call('DELETE', `/channels/${channelId}/permissions/${id}`);
	}

	/** The request log after `after`: one page of `limit`, or every entry when `limit` is not given. */
	async requests(after = 0, limit?: number): Promise<{ requests: SandboxRequest[]; lastSeq: number }> {
		const page = (from: number, size: number) =>
			this.#call<{ requests: SandboxRequest[]; lastSeq: number }>('GET', `/requests?${new URLSearchParams({ after: String(from), limit: String(size) })}`);
		if (limit !== undefined) return page(after, limit);
		const all: SandboxRequest[] = [];
		for (let from = after; ; ) {
			const { requests, lastSeq } = await page(from, 100_000);
			all.push(...requests);
			if (requests.length < 100_000) return { requests: all, lastSeq };
			from = requests.at(-1)!.seq;
		}
	}

	stats(): Promise<Record<string, unknown>> {
		return this.#call('GET', '/stats');
	}

	/** The guild in brief: its roles lowest first (`managed`: a bot's or the booster role, which nobody can give). */
	state(): Promise<{
		guildId: string;
		/** Who owns the guild now (see {@link transferOwnership}). */
		ownerId: string;
		/** The guild's members now (bots included). */
		members: number;
		/** `permissions`: the role's bits, a decimal string as Discord writes it. */
		roles: Array<{ id: string; name: string; position: number; permissions: string; managed: boolean; mentionable: boolean }>;
		apps: Array<{ id: string; name: string; membersIntent: boolean }>;
	}> {
		return this.#call('GET', '/state');
	}

	/** The newest entries first: nickname changes (`action_type` 24) and roles given or taken (25). */
	auditLog(
		guildId: string,
		limit = 100,
	): Promise<{
		audit_log_entries: Array<{
			user_id: string;
			target_id: string;
			action_type: number;
			reason?: string;
			changes?: Array<{ key: string; new_value?: unknown }>;
		}>;
	}> {
		return this.#call('GET', `/audit-log?${new URLSearchParams({ guildId, limit: String(limit) })}`);
	}

	faults(faults: Record<string, unknown>): Promise<unknown> {
		return this.#call('POST', '/faults', faults);
	}

	/** Every message the bots posted in the channel, oldest first, ephemeral and deleted ones included. */
	messages(channelId: string): Promise<ControlMessage[]> {
		return this.#call('GET', `/channels/${channelId}/messages`);
	}

	/**
	 * The messages in the channel that mentioned anyone at any time (a user, a role, `@everyone`
	 * or `@here`), ephemeral replies, follow-ups, edited and deleted messages included: empty
	 * when the bots pinged nobody.
	 */
	async mentioningMessages(channelId: string): Promise<ControlMessage[]> {
		return (await this.messages(channelId)).filter(({ everMentioned: ever }) => ever.everyone || ever.users.length > 0 || ever.roles.length > 0);
	}

	/** One message of `messages(channelId)`; fails when there is none with that id. */
	async message(channelId: string, messageId: string): Promise<ControlMessage> {
		const found = (await this.messages(channelId)).find((message) => message.id === messageId);
		if (!found) throw new Error(`no message ${messageId} in channel ${channelId}`);
		return found;
	}
}
