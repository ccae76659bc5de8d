import { REST } from '@discordjs/rest';
import {
	ButtonStyle,
	ComponentType,
	InteractionResponseType,
	InteractionType,
	MessageFlags,
	MessageType,
	RESTJSONErrorCodes,
	Routes,
	TextInputStyle,
} from 'discord-api-types/v10';
import {
	ActionRowBuilder,
	ButtonBuilder,
	Client,
	Events,
	GatewayIntentBits,
	type ButtonInteraction,
	type ChatInputCommandInteraction,
	type Interaction,
	type ModalSubmitInteraction,
	ModalBuilder,
	type TextChannel,
	TextInputBuilder,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { checkAgainstSpec } from './support/checkAgainstSpec.js';
import { ManualClock } from './support/ManualClock.js';
import { specOperation } from './support/specOperations.js';

/**
 * Modals through the real discord.js: a button (or a slash command) answered with a modal
 * (callback 9), the member submitting it through the control API (MODAL_SUBMIT, type 5), and the
 * answers to the submit, with Discord's rules for each.
 *
 * @see https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-modal
 */
let sandbox: Sandbox;
let control: SandboxControl;
let client: Client;
let channel: TextChannel;
const clock = new ManualClock();

beforeAll(async () => {
	const generous = { limit: 1000 };
	sandbox = await startSandbox({
		members: 30,
		workers: 1,
		seed: 25,
		now: clock.now,
		rateLimits: {
			global: generous,
			routes: { messageCreate: generous, messageEdit: generous, interactionCallback: generous, webhook: generous, default: generous },
		},
	});
	control = new SandboxControl(sandbox.controlUrl);
	client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
	const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
	await client.login(sandbox.bossToken);
	await ready;
	channel = (await client.channels.fetch(sandbox.channelId)) as TextChannel;
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

/** A modal asking for a count, in a Label, as massnick's typed confirmation does. */
function countModal(customId = 'confirm:1'): ModalBuilder {
	return new ModalBuilder()
		.setCustomId(customId)
		.setTitle('Kick 42 members?')
		.addTextDisplayComponents((text) => text.setContent('A kick cannot be undone.'))
		.addLabelComponents((label) =>
			label
				.setLabel('Type the number of members: 42')
				.setTextInputComponent((input) => input.setCustomId('count').setStyle(TextInputStyle.Short).setMinLength(1).setMaxLength(12)),
		);
}

function next<T extends Interaction>(accept: (interaction: Interaction) => interaction is T): Promise<T> {
	return new Promise((resolve) => {
		const listener = (interaction: Interaction): void => {
			if (!accept(interaction)) return;
			client.off(Events.InteractionCreate, listener);
			resolve(interaction);
		};
		client.on(Events.InteractionCreate, listener);
	});
}

/** A message with a Start button, pressed by the owner, answered with the count modal. */
async function openModal(): Promise<{ press: ButtonInteraction; messageId: string }> {
	const message = await channel.send({
		content: 'Preview',
		components: [new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('start').setLabel('Start').setStyle(ButtonStyle.Danger))],
	});
	const pressed = next((interaction): interaction is ButtonInteraction => interaction.isButton());
	await control.pressButton(sandbox.guildId, sandbox.ownerId, sandbox.channelId, message.id, 'start');
	const press = await pressed;
	await press.showModal(countModal());
	return { press, messageId: message.id };
}

async function submit(openerId: string, values: Record<string, string>): Promise<ModalSubmitInteraction> {
	const submitted = next((interaction): interaction is ModalSubmitInteraction => interaction.isModalSubmit());
	await control.submitModal(openerId, values);
	return submitted;
}

describe('showing a modal (callback 9)', () => {
	it('keeps the modal on the interaction, its components numbered, until the member submits it', async () => {
		const { press } = await openModal();
		const seen = await control.interaction(press.id);
		expect(seen.responses).toMatchObject([{ kind: 'callback', type: InteractionResponseType.Modal }]);
		expect(seen.modal).toEqual({
			customId: 'confirm:1',
			title: 'Kick 42 members?',
			parts: [
				{ kind: 'text', id: 1 },
				{ kind: 'label', id: 2, input: { customId: 'count', id: 3, style: TextInputStyle.Short, required: true, minLength: 1, maxLength: 12 } },
			],
		});
	});

	it('refuses what Discord refuses, each field named under data in one 400/50035', async () => {
		const message = await channel.send({
			content: 'x',
			components: [new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('go').setLabel('Go').setStyle(ButtonStyle.Primary))],
		});
		const pressed = next((interaction): interaction is ButtonInteraction => interaction.isButton());
		await control.pressButton(sandbox.guildId, sandbox.ownerId, sandbox.channelId, message.id, 'go');
		const press = await pressed;
		const input = (customId: string, extra: Record<string, unknown> = {}) => ({
			type: ComponentType.TextInput,
			custom_id: customId,
			style: TextInputStyle.Short,
			...extra,
		});
		const label = (component: unknown) => ({ type: ComponentType.Label, label: 'Count', component });
		const error = await apiFailure(
			new REST({ api: sandbox.apiUrl }).post(Routes.interactionCallback(press.id, press.token), {
				auth: false,
				body: {
					type: InteractionResponseType.Modal,
					data: {
						custom_id: 'm',
						title: 't'.repeat(46),
						components: [
							label(input('a', { min_length: 5, max_length: 2 })),
							label(input('a')),
							label({ type: ComponentType.StringSelect, custom_id: 's', options: [] }),
						],
					},
				},
			}),
		);
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.rawError).toMatchObject({
			errors: {
				data: {
					title: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 45 in length.' }] },
					components: {
						0: { component: { min_length: { _errors: [{ code: 'BASE_TYPE_MAX' }] } } },
						1: { component: { custom_id: { _errors: [{ code: 'COMPONENT_CUSTOM_ID_DUPLICATED' }] } } },
						2: { component: { type: { _errors: [{ code: 'COMPONENT_TYPE_INVALID' }] } } },
					},
				},
			},
		});
		const six = Array.from({ length: 6 }, (_, i) => label(input(`i${i}`)));
		const tooMany = await apiFailure(press.showModal({ custom_id: 'm', title: 'T', components: six } as never));
		expect(tooMany.message).toContain('data.components[BASE_TYPE_BAD_LENGTH]: Must be between 1 and 5 in length.');
		// Refused, the press is still unanswered: a valid modal goes through.
		await press.showModal(countModal('m'));
		expect((await control.interaction(press.id)).modal?.customId).toBe('m');
	});
});

describe('submitting a modal', () => {
	it('reaches the app as MODAL_SUBMIT with the modal’s custom_id, each input’s text in its Label, and the button’s message', async () => {
		const { press, messageId } = await openModal();
		const submitted = await submit(press.id, { count: '42' });
		expect(submitted.type).toBe(InteractionType.ModalSubmit);
		expect(submitted.customId).toBe('confirm:1');
		expect(submitted.fields.getTextInputValue('count')).toBe('42');
		expect(submitted.user.id).toBe(sandbox.ownerId);
		expect(submitted.isFromMessage()).toBe(true);
		expect(submitted.message?.id).toBe(messageId);
		const payload = sandbox.state.interactions.get(submitted.id)!.payload as unknown as Record<string, any>;
		expect(payload.data).toEqual({
			custom_id: 'confirm:1',
			components: [
				{ type: ComponentType.TextDisplay, id: 1 },
				{ type: ComponentType.Label, id: 2, component: { type: ComponentType.TextInput, id: 3, custom_id: 'count', value: '42' } },
			],
		});
		expect(await control.interaction(submitted.id)).toMatchObject({
			type: InteractionType.ModalSubmit,
			customId: 'confirm:1',
			modalOf: press.id,
			componentMessageId: messageId,
		});
		await submitted.deferUpdate();
	});

	it('update (7) on a submit from a button edits the button’s message', async () => {
		const { press, messageId } = await openModal();
		const submitted = await submit(press.id, { count: '42' });
		if (!submitted.isFromMessage()) throw new Error('expected a submit from the button’s message');
		await submitted.update({ content: 'Started', components: [] });
		expect(await control.message(sandbox.channelId, messageId)).toMatchObject({ content: 'Started', components: [], edits: 1 });
	});

	it('a reply (4) to a submit is a reply to the button’s message, its metadata type 5 naming the press that opened the modal', async () => {
		const { press, messageId } = await openModal();
		const submitted = await submit(press.id, { count: '41' });
		const reply = await submitted.reply({ content: 'You typed 41; the preview shows 42.', flags: MessageFlags.Ephemeral, withResponse: true });
		const created = reply.resource!.message!;
		const stored = await control.message(sandbox.channelId, created.id);
		expect(stored).toMatchObject({
			ephemeral: true,
			type: MessageType.Reply,
			message_reference: { message_id: messageId },
			interaction_metadata: {
				id: submitted.id,
				type: InteractionType.ModalSubmit,
				triggering_interaction_metadata: { id: press.id, type: InteractionType.MessageComponent, interacted_message_id: messageId },
			},
		});
		const { ephemeral: _e, deleted: _d, edits: _n, interactionId: _i, everMentioned: _m, ...message } = stored;
		expect(checkAgainstSpec(specOperation('get_message').responses.get('200')!, message).problems).toEqual([]);
	});

	it('a modal answering a slash command, in the older action-row layout, submits its text input in its row', async () => {
		await client.application!.commands.set([{ name: 'ask', description: 'Ask for a count' }], sandbox.guildId);
		const commanded = next((interaction): interaction is ChatInputCommandInteraction => interaction.isChatInputCommand());
		const id = await control.invoke(sandbox.guildId, sandbox.ownerId, 'ask');
		const command = await commanded;
		await command.showModal(
			new ModalBuilder()
				.setCustomId('ask')
				.setTitle('Count')
				.addComponents(
					new ActionRowBuilder<TextInputBuilder>().addComponents(new TextInputBuilder().setCustomId('n').setLabel('Count').setStyle(TextInputStyle.Short)),
				),
		);
		const submitted = await submit(id, { n: '7' });
		expect(submitted.fields.getTextInputValue('n')).toBe('7');
		expect(submitted.isFromMessage()).toBe(false);
		expect((sandbox.state.interactions.get(submitted.id)!.payload as unknown as Record<string, any>).data.components).toEqual([
			{ type: ComponentType.ActionRow, id: 1, components: [{ type: ComponentType.TextInput, id: 2, custom_id: 'n', value: '7' }] },
		]);
		await submitted.reply({ content: 'ok', flags: MessageFlags.Ephemeral });
	});

	it('is refused as Discord’s client would never send it: an empty required input, a text too long, an unknown input, a second submit', async () => {
		const { press } = await openModal();
		const refusal = (values: Record<string, string>) =>
			control.submitModal(press.id, values).then(
				() => 'accepted',
				(error: Error) => error.message,
			);
		expect(await refusal({})).toMatch(/answered 400: .*"count\\" is required/);
		expect(await refusal({ count: '1'.repeat(13) })).toMatch(/answered 400: .*takes 1 to 12 characters; got 13/);
		expect(await refusal({ count: '1', other: 'x' })).toMatch(/answered 400: .*has no text input \\"other\\"/);
		const submitted = await submit(press.id, { count: '42' });
		expect(await refusal({ count: '42' })).toMatch(/answered 400: .*has no modal open/);
		await expect(control.submitModal('1', { count: '1' })).rejects.toThrow(/answered 404: .*unknown interaction/);
		await submitted.deferUpdate();
	});

	it('a modal cannot answer a modal submit: 400/50035 on type, and the submit can still be answered', async () => {
		const { press } = await openModal();
		const submitted = await submit(press.id, { count: '42' });
		// discord.js offers no showModal on a submit, so it goes out through REST as is.
		const error = await apiFailure(
			new REST({ api: sandbox.apiUrl }).post(Routes.interactionCallback(submitted.id, submitted.token), {
				auth: false,
				body: { type: InteractionResponseType.Modal, data: countModal('again').toJSON() },
			}),
		);
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.message).toContain('type[INTERACTION_CALLBACK_TYPE_INVALID]');
		await submitted.deferUpdate();
	});
});
