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
	type APIActionRowComponent,
	type APIButtonComponent,
	type APIMessage,
} from 'discord-api-types/v10';
import {
	ActionRowBuilder,
	ButtonBuilder,
	Client,
	Events,
	GatewayIntentBits,
	type ButtonInteraction,
	type Interaction,
	type Message,
	type TextChannel,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { checkAgainstSpec } from './support/checkAgainstSpec.js';
import { ManualClock } from './support/ManualClock.js';
import { specOperation } from './support/specOperations.js';

/** Discord's deadlines: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction */
const FIRST_RESPONSE_DEADLINE_MS = 3000;
const TOKEN_LIFETIME_MS = 15 * 60_000;

let sandbox: Sandbox;
let control: SandboxControl;
let client: Client;
let channel: TextChannel;
/** A second member, neither the owner nor a bot. */
let otherId: string;
/** The sandbox's time stands still unless a test moves it, so no deadline passes on a slow machine. */
const clock = new ManualClock();

beforeAll(async () => {
	// Time stands still, so rate-limit windows never reset by themselves: limits are another suite's business.
	const generous = { limit: 1000 };
	sandbox = await startSandbox({
		members: 50,
		workers: 1,
		seed: 21,
		now: clock.now,
		rateLimits: {
			global: generous,
			routes: { messageCreate: generous, messageEdit: generous, interactionCallback: generous, webhook: generous, default: generous },
		},
	});
	control = new SandboxControl(sandbox.controlUrl);
	otherId = (await control.members(sandbox.guildId)).find((member) => !member.bot && member.id !== sandbox.ownerId)!.id;
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

/** A preview with Start and Cancel, and a link button (which sends no interaction). */
function previewRow(): ActionRowBuilder<ButtonBuilder> {
	return new ActionRowBuilder<ButtonBuilder>().addComponents(
		new ButtonBuilder().setCustomId('start').setLabel('Start').setStyle(ButtonStyle.Primary),
		new ButtonBuilder().setCustomId('cancel').setLabel('Cancel').setStyle(ButtonStyle.Danger).setEmoji({ name: '✖️' }),
		new ButtonBuilder().setLabel('Docs').setStyle(ButtonStyle.Link).setURL('https://example.com/massnick'),
	);
}

function postPreview(content = 'Preview: rename 42 members to "Pumpkin"'): Promise<Message<true>> {
	return channel.send({ content, components: [previewRow()] });
}

/** Presses a button through the control API and waits for the client to receive it. */
async function press(messageId: string, customId: string, userId = sandbox.ownerId): Promise<{ id: string; interaction: ButtonInteraction }> {
	const received = new Promise<Interaction>((resolve) => client.once(Events.InteractionCreate, resolve));
	const id = await control.pressButton(sandbox.guildId, userId, sandbox.channelId, messageId, customId);
	const interaction = await received;
	if (!interaction.isButton()) throw new Error(`expected a button interaction, got type ${interaction.type}`);
	return { id, interaction };
}

/** Posts a message through REST as is, so discord.js's builders don't refuse it first. */
function rawSend(components: unknown[]): Promise<unknown> {
	return client.rest.post(Routes.channelMessages(sandbox.channelId), { body: { content: 'raw', components } });
}

const button = (customId: string, extra: Partial<APIButtonComponent> = {}): APIButtonComponent =>
	({ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId, label: 'Go', ...extra }) as APIButtonComponent;
const row = (...buttons: APIButtonComponent[]): APIActionRowComponent<APIButtonComponent> => ({ type: ComponentType.ActionRow, components: buttons });

describe('buttons on messages', () => {
	it('a message keeps its buttons, numbered, with style, label, custom_id, emoji and the link button’s url', async () => {
		const message = await postPreview();
		const stored = await control.message(sandbox.channelId, message.id);
		expect(stored.components).toEqual([
			{
				type: ComponentType.ActionRow,
				id: 1,
				components: [
					{ type: ComponentType.Button, id: 2, custom_id: 'start', label: 'Start', style: ButtonStyle.Primary },
					{ type: ComponentType.Button, id: 3, custom_id: 'cancel', label: 'Cancel', style: ButtonStyle.Danger, emoji: { name: '✖️' } },
					{ type: ComponentType.Button, id: 4, label: 'Docs', style: ButtonStyle.Link, url: 'https://example.com/massnick' },
				],
			},
		]);
	});

	it('a custom_id of 101 characters is refused with 400/50035 naming components.0.components.0.custom_id', async () => {
		const error = await apiFailure(rawSend([row(button('x'.repeat(101)))]));
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.rawError).toEqual({
			code: RESTJSONErrorCodes.InvalidFormBodyOrContentType,
			message: 'Invalid Form Body',
			errors: {
				components: {
					0: { components: { 0: { custom_id: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }] } } } },
				},
			},
		});
		expect(error.message).toContain('components[0].components[0].custom_id[BASE_TYPE_BAD_LENGTH]');
		// 100 is the most Discord takes.
		await expect(rawSend([row(button('x'.repeat(100)))])).resolves.toMatchObject({ content: 'raw' });
	});

	it('6 action rows are refused (at most 5 without IS_COMPONENTS_V2), and so are 6 buttons in one row', async () => {
		const rows = Array.from({ length: 6 }, (_, i) => row(button(`b${i}`)));
		expect((await apiFailure(rawSend(rows))).message).toContain('components[BASE_TYPE_MAX_LENGTH]: Must be 5 or fewer in length.');
		const wide = row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)));
		expect((await apiFailure(rawSend([wide]))).message).toContain('components[0].components[BASE_TYPE_BAD_LENGTH]: Must be between 1 and 5 in length.');
	});

	it('a repeated custom_id (even on a disabled button), a missing custom_id and a long label are each named in one 50035', async () => {
		const error = await apiFailure(
			rawSend([
				row(button('go'), button('go', { disabled: true })),
				row({ type: ComponentType.Button, style: ButtonStyle.Primary, label: 'No id' } as APIButtonComponent, button('long', { label: 'l'.repeat(81) })),
			]),
		);
		expect(error.rawError).toMatchObject({
			errors: {
				components: {
					0: {
						components: { 1: { custom_id: { _errors: [{ code: 'COMPONENT_CUSTOM_ID_DUPLICATED', message: 'Component custom id cannot be duplicated' }] } } },
					},
					1: {
						components: {
							0: { custom_id: { _errors: [{ code: 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED' }] } },
							1: { label: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 80 or fewer in length.' }] } },
						},
					},
				},
			},
		});
	});

	it('an edit is held to the same rules, and the message keeps its buttons when the edit refused', async () => {
		const message = await postPreview();
		const error = await apiFailure(message.edit({ components: [row(button('same'), button('same'))] }));
		expect(error.message).toContain('components[0].components[1].custom_id[COMPONENT_CUSTOM_ID_DUPLICATED]');
		expect((await control.message(sandbox.channelId, message.id)).components[0]!.components).toHaveLength(3);
	});
});

describe('pressing a button', () => {
	it('reaches the app that posted the message as a button interaction with the member, the message and the custom_id', async () => {
		const message = await postPreview();
		const { id, interaction } = await press(message.id, 'start');
		expect(interaction.id).toBe(id);
		expect(interaction.type).toBe(InteractionType.MessageComponent);
		expect(interaction.customId).toBe('start');
		expect(interaction.componentType).toBe(ComponentType.Button);
		expect(interaction.user.id).toBe(sandbox.ownerId);
		expect(interaction.member?.user.id).toBe(sandbox.ownerId);
		expect(interaction.guildId).toBe(sandbox.guildId);
		expect(interaction.channelId).toBe(sandbox.channelId);
		expect(interaction.message.id).toBe(message.id);
		expect(interaction.message.content).toBe(message.content);
		expect('label' in interaction.component && interaction.component.label).toBe('Start');
		expect(interaction.memberPermissions?.has('ViewChannel')).toBe(true);
		expect(interaction.appPermissions.has('SendMessages')).toBe(true);

		const payload = sandbox.state.interactions.get(id)!.payload as unknown as Record<string, any>;
		expect(payload).toMatchObject({
			type: InteractionType.MessageComponent,
			application_id: sandbox.bossId,
			data: { custom_id: 'start', component_type: ComponentType.Button, id: 2 },
			version: 1,
			locale: 'en-US',
			guild_locale: 'en-US',
			entitlements: [],
			authorizing_integration_owners: { '0': sandbox.guildId },
			context: 0,
			guild_id: sandbox.guildId,
			channel_id: sandbox.channelId,
			channel: { id: sandbox.channelId },
		});
		expect(typeof payload.member.permissions).toBe('string');
		expect(typeof payload.app_permissions).toBe('string');
		// The message travels whole, as the spec's message object.
		expect(checkAgainstSpec(specOperation('get_message').responses.get('200')!, payload.message).problems).toEqual([]);
		await interaction.deferUpdate();
	});

	it('carries the member who pressed: another member’s press is theirs', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'cancel', otherId);
		expect(interaction.user.id).toBe(otherId);
		expect(interaction.member?.user.id).toBe(otherId);
		expect((await control.interaction(interaction.id)).userId).toBe(otherId);
		await interaction.deferUpdate();
	});

	it('is refused by the control API (400) for an unknown custom_id, a disabled button or a bot pressing; an unknown message is 404', async () => {
		const message = await channel.send({ content: 'Done', components: [row(button('again', { disabled: true }))] });
		const refusal = (customId: string, messageId = message.id, userId = sandbox.ownerId) =>
			control.pressButton(sandbox.guildId, userId, sandbox.channelId, messageId, customId).then(
				() => 'accepted',
				(error: Error) => error.message,
			);
		expect(await refusal('nope')).toMatch(/answered 400: .*has no component with custom_id \\"nope\\" \(it has: \\"again\\"\)/);
		expect(await refusal('again')).toMatch(/answered 400: .*is disabled/);
		const preview = await postPreview();
		expect(await refusal('start', preview.id, sandbox.workerIds[0]!)).toMatch(/answered 400: .*bots can't press buttons/);
		expect(await refusal('start', '1')).toMatch(/answered 404: .*unknown message/);
	});
});

describe('answering a press', () => {
	it('update (7) edits the message the button is on, at once; the control API shows the edit and the response', async () => {
		const message = await postPreview();
		const { id, interaction } = await press(message.id, 'start');
		await interaction.update({ content: 'Renaming 42 members…', components: [] });

		const stored = await control.message(sandbox.channelId, message.id);
		expect(stored).toMatchObject({ content: 'Renaming 42 members…', components: [], edits: 1 });
		expect(stored.edited_timestamp).not.toBeNull();
		expect((await channel.messages.fetch({ message: message.id, force: true })).content).toBe('Renaming 42 members…');
		const seen = await control.interaction(id);
		expect(seen).toMatchObject({
			type: InteractionType.MessageComponent,
			command: null,
			customId: 'start',
			componentMessageId: message.id,
			originalMessageId: message.id,
		});
		expect(seen.responses).toMatchObject([{ kind: 'callback', type: InteractionResponseType.UpdateMessage, messageId: message.id }]);
	});

	it('deferUpdate (6) changes nothing; editReply then edits the message the button is on, and a follow-up replies to it', async () => {
		const message = await postPreview();
		const { id, interaction } = await press(message.id, 'cancel');
		await interaction.deferUpdate();
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: message.content, edits: 0 });

		const edited = await interaction.editReply({ content: 'Cancelled', components: [] });
		expect(edited.id).toBe(message.id);
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: 'Cancelled', components: [], edits: 1 });

		const followUp = await interaction.followUp({ content: 'Nothing was renamed.' });
		expect(followUp.type).toBe(MessageType.Reply);
		expect(followUp.reference?.messageId).toBe(message.id);
		expect((await control.interaction(id)).responses.map((response) => [response.kind, response.type])).toEqual([
			['callback', InteractionResponseType.DeferredMessageUpdate],
			['edit', undefined],
			['followup', undefined],
		]);
	});

	it('reply (4) with the ephemeral flag creates an ephemeral reply to the button’s message, whose own buttons only its user can press', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'start');
		const reply = await interaction.reply({
			content: 'Sure? This renames 42 members.',
			components: [row(button('confirm'))],
			flags: MessageFlags.Ephemeral,
			withResponse: true,
		});
		const created = reply.resource!.message!;
		expect(created.flags.has(MessageFlags.Ephemeral)).toBe(true);
		const stored = (await control.messages(sandbox.channelId)).find((candidate) => candidate.id === created.id) as unknown as APIMessage & {
			ephemeral: boolean;
			interactionId: string;
		};
		expect(stored).toMatchObject({ ephemeral: true, interactionId: interaction.id, type: MessageType.Reply, message_reference: { message_id: message.id } });
		expect(stored.interaction_metadata).toMatchObject({
			id: interaction.id,
			type: InteractionType.MessageComponent,
			interacted_message_id: message.id,
			user: { id: sandbox.ownerId },
		});
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: message.content, edits: 0 });

		await expect(control.pressButton(sandbox.guildId, otherId, sandbox.channelId, created.id, 'confirm')).rejects.toThrow(/answered 400: .*ephemeral/);
		const confirmed = await press(created.id, 'confirm');
		await confirmed.interaction.update({ content: 'Started.', components: [] });
		expect(await control.message(sandbox.channelId, created.id)).toMatchObject({ content: 'Started.', ephemeral: true, edits: 1 });
	});

	it('a deferred reply (5) is a "thinking…" reply that editReply fills', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'start');
		await interaction.deferReply();
		const filled = await interaction.editReply('Planned 42 renames');
		expect(filled.id).not.toBe(message.id);
		expect(filled.type).toBe(MessageType.Reply);
		expect(await control.message(sandbox.channelId, filled.id)).toMatchObject({ content: 'Planned 42 renames', flags: 0 });
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: message.content, edits: 0 });
	});

	it('a second callback is refused with 400/40060', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'start');
		await interaction.update({ content: 'Starting' });
		// discord.js refuses a second answer itself, so it goes out through REST as is.
		const error = await apiFailure(
			new REST({ api: sandbox.apiUrl }).post(Routes.interactionCallback(interaction.id, interaction.token), {
				auth: false,
				body: { type: InteractionResponseType.DeferredMessageUpdate },
			}),
		);
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged]);
	});

	it('a first callback is accepted until 3 s after the press, and is 404/10062 a millisecond later', async () => {
		const onTime = await press((await postPreview()).id, 'start');
		clock.advance(FIRST_RESPONSE_DEADLINE_MS);
		await onTime.interaction.deferUpdate();

		const message = await postPreview();
		const late = await press(message.id, 'start');
		clock.advance(FIRST_RESPONSE_DEADLINE_MS + 1);
		const error = await apiFailure(late.interaction.update({ content: 'too late' }));
		expect([error.status, error.code]).toEqual([404, RESTJSONErrorCodes.UnknownInteraction]);
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: message.content, edits: 0 });
		expect((await control.interaction(late.id)).responses).toEqual([]);
	});

	it('editReply works for 15 minutes after the press, and is 401/50027 a millisecond later', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'start');
		await interaction.deferUpdate();
		clock.advance(TOKEN_LIFETIME_MS);
		await interaction.editReply({ content: 'Still renaming' });
		clock.advance(1);
		const error = await apiFailure(interaction.editReply({ content: 'too late' }));
		expect([error.status, error.code]).toEqual([401, RESTJSONErrorCodes.InvalidWebhookToken]);
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: 'Still renaming', edits: 1 });
	});

	it('an update with invalid components is refused with the errors under data, and the press can still be answered', async () => {
		const message = await postPreview();
		const { interaction } = await press(message.id, 'start');
		const rows = Array.from({ length: 6 }, (_, i) => row(button(`b${i}`)));
		const error = await apiFailure(interaction.update({ components: rows }));
		expect(error.message).toContain('data.components[BASE_TYPE_MAX_LENGTH]: Must be 5 or fewer in length.');
		await interaction.update({ content: 'Started', components: [] });
		expect(await control.message(sandbox.channelId, message.id)).toMatchObject({ content: 'Started', edits: 1 });
	});
});
