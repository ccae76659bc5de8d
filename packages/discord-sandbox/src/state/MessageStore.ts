import type { APIMessage } from 'discord-api-types/v10';
import { MentionHistory } from './MentionHistory.js';

/** A message the bots posted, with what the control API reports about it. */
export interface StoredMessage {
	message: APIMessage;
	/** How many times it was edited after being posted. */
	edits: number;
	/** Ephemeral interaction replies exist only for the invoking user, not in the channel. */
	ephemeral: boolean;
	interactionId: string | null;
	deleted: boolean;
	/** Whom it mentioned at any time, edits included (`message` holds only the latest). */
	everMentioned: MentionHistory;
}

/**
 * Messages by id and per channel. Channel messages never expire: the boss edits one progress
 * message for hours.
 */
export class MessageStore {
	readonly #byId = new Map<string, StoredMessage>();
	readonly #byChannel = new Map<string, StoredMessage[]>();

	public add(message: APIMessage, options: { ephemeral?: boolean; interactionId?: string | null } = {}): StoredMessage {
		const stored: StoredMessage = {
			message,
			edits: 0,
			ephemeral: options.ephemeral ?? false,
			interactionId: options.interactionId ?? null,
			deleted: false,
			everMentioned: new MentionHistory(),
		};
		stored.everMentioned.note(message);
		this.#byId.set(message.id, stored);
		let channel = this.#byChannel.get(message.channel_id);
		if (!channel) this.#byChannel.set(message.channel_id, (channel = []));
		channel.push(stored);
		return stored;
	}

	/** A message that exists and wasn't deleted. */
	public get(id: string): StoredMessage | undefined {
		const stored = this.#byId.get(id);
		return stored && !stored.deleted ? stored : undefined;
	}

	public delete(id: string): void {
		const stored = this.#byId.get(id);
		if (stored) stored.deleted = true;
	}

	/** Every message in a channel, oldest first, including ephemeral and deleted ones (for the control API). */
	public all(channelId: string): readonly StoredMessage[] {
		return this.#byChannel.get(channelId) ?? [];
	}

	/**
	 * What `GET /channels/{c}/messages` shows: visible messages, newest first, like Discord.
	 *
	 * @see {@link https://discord.com/developers/docs/resources/message#get-channel-messages}
	 */
	public list(channelId: string, options: { limit: number; before?: bigint; after?: bigint }): APIMessage[] {
		const visible = this.all(channelId).filter((stored) => {
			if (stored.deleted || stored.ephemeral) return false;
			const id = BigInt(stored.message.id);
			return (options.before === undefined || id < options.before) && (options.after === undefined || id > options.after);
		});
		const slice = options.after !== undefined && options.before === undefined ? visible.slice(0, options.limit) : visible.slice(-options.limit);
		return slice.reverse().map((stored) => stored.message);
	}
}
