import {
	ButtonStyle,
	ComponentType,
	InteractionType,
	PermissionFlagsBits,
	type APIMessageButtonInteractionData,
	type APIMessageComponentGuildInteraction,
} from 'discord-api-types/v10';
import { walkComponents, type ComponentNode } from '../rest/walkComponents.js';
import type { SandboxState } from '../state/SandboxState.js';
import { ControlError } from './ControlError.js';
import { dispatchInteraction, interactionEnvelope } from './interactionEnvelope.js';

/** `POST /_sandbox/interactions/component`: a member presses a button on a bot's message. */
export interface PressButtonRequest {
	guildId: string;
	userId: string;
	/** The message's channel; the message's own when left out. */
	channelId?: string;
	messageId: string;
	customId: string;
}

/**
 * Builds the INTERACTION_CREATE (type 3, MESSAGE_COMPONENT) that Discord sends to the app that
 * posted a message when a member presses one of its buttons, records it, and dispatches it. The
 * press is refused as Discord's client would never send it: a button that isn't on the message,
 * a disabled or link button, a message no app posted, one the member can't see (no View Channel,
 * or an ephemeral message shown to someone else), or a bot pressing.
 *
 * @see {@link https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-message-component-data-structure}
 * @see {@link https://discord.com/developers/docs/components/reference#button}
 */
export function pressButton(state: SandboxState, request: PressButtonRequest): { id: string } {
	if (request.guildId !== state.guildId) throw new ControlError(404, `unknown guild ${String(request.guildId)}; the sandbox's guild is ${state.guildId}`);
	const userIndex = typeof request.userId === 'string' ? state.memberIndex(state.guildId, request.userId) : -1;
	if (userIndex === -1) throw new ControlError(404, `user ${String(request.userId)} is not a member of guild ${state.guildId}`);
	if (typeof request.customId !== 'string' || request.customId === '')
		throw new ControlError(400, 'customId is required: the custom_id of the button to press');
	const stored = typeof request.messageId === 'string' ? state.messages.get(request.messageId) : undefined;
	if (!stored) throw new ControlError(404, `unknown message ${String(request.messageId)}`);
	const message = stored.message;
	if (request.channelId !== undefined && request.channelId !== message.channel_id) {
		throw new ControlError(404, `message ${message.id} is not in channel ${String(request.channelId)} (it is in ${message.channel_id})`);
	}

	const app = state.appById(message.application_id ?? message.author.id);
	if (!app || !message.author.bot) throw new ControlError(400, `message ${message.id} was not posted by an app; only an app's components send interactions`);
	if (!state.inGuild(app)) throw new ControlError(400, `${app.name} has left the guild; its components no longer answer`);
	if (state.userJson(userIndex).bot) throw new ControlError(400, `user ${request.userId} is a bot; bots can't press buttons`);
	if ((state.channelPermissions(userIndex) & PermissionFlagsBits.ViewChannel) === 0n) {
		throw new ControlError(400, `user ${request.userId} can't view channel ${message.channel_id}, so can't see message ${message.id}`);
	}
	const owner = stored.interactionId === null ? undefined : state.interactions.get(stored.interactionId);
	if (stored.ephemeral && owner?.userId !== request.userId) {
		throw new ControlError(400, `message ${message.id} is ephemeral: only user ${owner?.userId ?? '(unknown)'} sees it and can press its buttons`);
	}

	const button = findComponent(message.components ?? [], request.customId);
	if (!button) {
		throw new ControlError(
			400,
			`message ${message.id} has no component with custom_id "${request.customId}" (it has: ${customIdsOf(message.components ?? []).join(', ') || 'none'})`,
		);
	}
	if (button.type !== ComponentType.Button)
		throw new ControlError(400, `"${request.customId}" on message ${message.id} is not a button (component type ${String(button.type)})`);
	if (button.disabled === true) throw new ControlError(400, `button "${request.customId}" on message ${message.id} is disabled`);
	if (button.style === ButtonStyle.Premium) throw new ControlError(400, `button "${request.customId}" is a premium button, which sends no interaction`);

	const envelope = interactionEnvelope(state, app, userIndex);
	// Discord's docs show the component's numeric `id` beside `custom_id`; discord-api-types doesn't model it yet.
	const data = { component_type: ComponentType.Button, custom_id: request.customId, id: button.id } as APIMessageButtonInteractionData;
	const payload: APIMessageComponentGuildInteraction = { ...envelope, type: InteractionType.MessageComponent, data, message: structuredClone(message) };
	return dispatchInteraction(state, app, envelope, {
		type: InteractionType.MessageComponent,
		channelId: message.channel_id,
		command: null,
		customId: request.customId,
		componentMessageId: message.id,
		payload,
	});
}

function findComponent(components: readonly unknown[], customId: string): ComponentNode | undefined {
	let found: ComponentNode | undefined;
	walkComponents(components, (node) => {
		if (!found && node.custom_id === customId) found = node;
	});
	return found;
}

function customIdsOf(components: readonly unknown[]): string[] {
	const ids: string[] = [];
	walkComponents(components, (node) => {
		if (typeof node.custom_id === 'string') ids.push(`"${node.custom_id}"`);
	});
	return ids;
}
