import type { APIInteraction, InteractionType } from 'discord-api-types/v10';
import type { SandboxModal } from '../rest/readModal.js';

/** One thing a bot did with an interaction, as reported by the control API. */
export interface InteractionResponseRecord {
	kind: 'callback' | 'edit' | 'followup' | 'delete';
	/** Unix ms. */
	at: number;
	/** The callback type, for `callback`. */
	type?: number;
	body: unknown;
	/** The message created or edited, when there is one. */
	messageId?: string;
}

/** An interaction the sandbox sent, and everything its application answered. */
export interface SandboxInteraction {
	id: string;
	token: string;
	/** A slash command, a button pressed on one of the app's messages, or a modal submitted. */
	type: InteractionType.ApplicationCommand | InteractionType.MessageComponent | InteractionType.ModalSubmit;
	applicationId: string;
	guildId: string;
	channelId: string;
	userId: string;
	/** For a slash command: the full command name as typed, `massnick start`. */
	command: string | null;
	/** For a button: its `custom_id`; for a modal submitted: the modal's. */
	customId: string | null;
	/**
	 * For a button: the message it is on, which callbacks 6 and 7 (and then `@original`) edit; for
	 * a modal opened by a button, that button's message, which the submit's 6 and 7 edit.
	 */
	componentMessageId: string | null;
	createdAt: number;
	acknowledged: boolean;
	/** Answered with a deferral: 5 (a reply to come) or 6 (an update to come). */
	deferred: boolean;
	ephemeral: boolean;
	/** What `@original` names: the reply, or for callbacks 6 and 7 the component's message. */
	originalMessageId: string | null;
	responses: InteractionResponseRecord[];
	/** The modal the app answered with (callback 9), while the member has not submitted it. */
	modal?: SandboxModal | undefined;
	/** For a modal submitted: the interaction whose modal it was. */
	modalOf?: string | undefined;
	payload: APIInteraction;
}

/** Interactions by id and by token (webhook routes only carry the token). */
export class InteractionStore {
	readonly #byId = new Map<string, SandboxInteraction>();
	readonly #byToken = new Map<string, SandboxInteraction>();

	public add(interaction: SandboxInteraction): void {
		this.#byId.set(interaction.id, interaction);
		this.#byToken.set(interaction.token, interaction);
	}

	public get(id: string): SandboxInteraction | undefined {
		return this.#byId.get(id);
	}

	public byToken(token: string): SandboxInteraction | undefined {
		return this.#byToken.get(token);
	}
}
