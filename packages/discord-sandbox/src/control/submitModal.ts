import {
	ComponentType,
	InteractionType,
	type APIModalSubmissionComponent,
	type APIModalSubmitGuildInteraction,
	type APIModalSubmitTextInputComponent,
} from 'discord-api-types/v10';
import type { ModalTextInput } from '../rest/readModal.js';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';
import { dispatchInteraction, interactionEnvelope } from './interactionEnvelope.js';

/** `POST /_sandbox/interactions/modal`: the member fills in the modal an app showed them and submits it. */
export interface SubmitModalRequest {
	/** The interaction the app answered with the modal (a slash command or a button press). */
	interactionId: string;
	/** Each text input's text, by its `custom_id`; an input left out is left empty. */
	values: Record<string, string>;
}

/**
 * Builds the INTERACTION_CREATE (type 5, MODAL_SUBMIT) that Discord sends to the app when the
 * member submits its modal: the modal's `custom_id` and, for each of its components, what the
 * member entered (a Label with its text input, an action row with its one, a Text Display by its
 * `id`), with the button's message when a button opened the modal. The modal closes: a second
 * submit is refused. The submit is refused as Discord's client would never send it: no modal open,
 * a value for an input the modal lacks, a required input left empty, a text outside the input's
 * `min_length` and `max_length`.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-modal-submit-data-structure}
 * @see {@link https://discord.com/developers/docs/components/reference#text-input-text-input-interaction-response-structure}
 */
export function submitModal(state: SandboxState, request: SubmitModalRequest): { id: string } {
	const opener = typeof request.interactionId === 'string' ? state.interactions.get(request.interactionId) : undefined;
	if (!opener) throw new ControlError(404, `unknown interaction ${String(request.interactionId)}`);
	const modal = opener.modal;
	if (!modal)
		throw new ControlError(400, `interaction ${opener.id} has no modal open: the app did not answer it with a modal (callback 9), or it was submitted already`);
	const values = typeof request.values === 'object' && request.values !== null ? request.values : {};
	const inputs = modal.parts.flatMap((part) => (part.kind === 'text' ? [] : [part.input]));
	const unknown = Object.keys(values).filter((customId) => !inputs.some((input) => input.customId === customId));
	if (unknown.length > 0) {
		throw new ControlError(
			400,
			`modal "${modal.customId}" has no text input ${unknown.map((id) => `"${id}"`).join(', ')} (it has: ${inputs.map((input) => `"${input.customId}"`).join(', ')})`,
		);
	}
	for (const input of inputs) checkValue(input, values[input.customId] ?? '');
	const userIndex = state.memberIndex(state.guildId, opener.userId);
	if (userIndex === -1) throw new ControlError(400, `user ${opener.userId} left the guild; the modal closed with it`);
	const app = state.appById(opener.applicationId);
	if (!app || !state.inGuild(app)) throw new ControlError(400, `the app that showed modal "${modal.customId}" has left the guild`);

	const answer = (input: ModalTextInput): APIModalSubmitTextInputComponent => ({
		type: ComponentType.TextInput,
		id: input.id,
		custom_id: input.customId,
		value: values[input.customId] ?? '',
	});
	const components = modal.parts.map((part): APIModalSubmissionComponent => {
		if (part.kind === 'label') return { type: ComponentType.Label, id: part.id, component: answer(part.input) };
		if (part.kind === 'row') return { type: ComponentType.ActionRow, id: part.id, components: [answer(part.input)] };
		return { type: ComponentType.TextDisplay, id: part.id };
	});
	const envelope = interactionEnvelope(state, app, userIndex);
	const message = opener.componentMessageId === null ? undefined : state.messages.get(opener.componentMessageId)?.message;
	const payload = {
		...envelope,
		type: InteractionType.ModalSubmit,
		data: { custom_id: modal.customId, components },
		...(message ? { message: structuredClone(message) } : {}),
	} as APIModalSubmitGuildInteraction;
	opener.modal = undefined;
	return dispatchInteraction(state, app, envelope, {
		type: InteractionType.ModalSubmit,
		channelId: opener.channelId,
		command: null,
		customId: modal.customId,
		componentMessageId: opener.componentMessageId,
		payload,
		modalOf: opener.id,
	});
}

/** What Discord's client checks before it lets the member submit. */
function checkValue(input: ModalTextInput, value: unknown): void {
	if (typeof value !== 'string') throw new ControlError(400, `the value of "${input.customId}" must be a string`);
	const length = [...value].length;
	if (length === 0 && input.required) throw new ControlError(400, `"${input.customId}" is required: Discord's client does not submit the modal without it`);
	if (length > 0 && (length < input.minLength || length > input.maxLength)) {
		throw new ControlError(400, `"${input.customId}" takes ${input.minLength} to ${input.maxLength} characters; got ${length}`);
	}
}
