import type { APIMessage } from 'discord-api-types/v10';

/** What the control API shows of a {@link MentionHistory}. */
export interface MentionHistoryJson {
	users: string[];
	roles: string[];
	everyone: boolean;
}

/**
 * Everyone a message has mentioned in its life: at creation and after each edit that computed its
 * mentions again. The message object only holds the latest (an edit rebuilds them from scratch),
 * so a message that said `@everyone` and was then edited would otherwise look harmless to a test
 * asking "did the bot ever ping anyone?".
 */
export class MentionHistory {
	readonly #users = new Set<string>();
	readonly #roles = new Set<string>();
	#everyone = false;

	public note(mentions: Pick<APIMessage, 'mentions' | 'mention_roles' | 'mention_everyone'>): void {
		for (const user of mentions.mentions) this.#users.add(user.id);
		for (const role of mentions.mention_roles) this.#roles.add(role);
		this.#everyone ||= mentions.mention_everyone;
	}

	public toJSON(): MentionHistoryJson {
		return { users: [...this.#users], roles: [...this.#roles], everyone: this.#everyone };
	}
}
