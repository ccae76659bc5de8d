import { REST } from '@discordjs/rest';
import {
	ApplicationCommandOptionType,
	InteractionResponseType,
	MessageFlags,
	RESTJSONErrorCodes,
	Routes,
	type APIApplicationCommand,
	type APIMessage,
	type RESTPostAPIChatInputApplicationCommandsJSONBody,
	type RESTPostAPIInteractionCallbackWithResponseResult,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { ManualClock } from './support/ManualClock.js';

/** Discord's deadlines: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction */
const FIRST_RESPONSE_DEADLINE_MS = 3000;
const TOKEN_LIFETIME_MS = 15 * 60_000;

let sandbox: Sandbox;
let rest: REST;
/** The shared sandbox's time: it stands still unless a test moves it. */
const clock = new ManualClock();

const commands: RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
	{
		name: 'massnick',
		description: 'Rename everyone',
		default_member_permissions: '134217728',
		options: [
			{ type: ApplicationCommandOptionType.String, name: 'name', description: 'The nickname', required: true, max_length: 100 },
			{ type: ApplicationCommandOptionType.Role, name: 'role', description: 'Only this role' },
			{ type: ApplicationCommandOptionType.Boolean, name: 'dry_run', description: 'Count only' },
		],
	},
	{ name: 'status', description: 'Show progress' },
];

async function control<T>(method: string, path: string, body?: unknown, on: Sandbox = sandbox): Promise<{ status: number; body: T }> {
	const response = await fetch(`${on.controlUrl}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
	return { status: response.status, body: (await response.json()) as T };
}

async function invoke(command: string, options: Record<string, unknown> = {}, on: Sandbox = sandbox): Promise<{ id: string; token: string }> {
	const { status, body } = await control<{ id: string }>('POST', '/interactions', { guildId: on.guildId, userId: on.ownerId, command, options }, on);
	expect(status).toBe(200);
	return { id: body.id, token: on.state.interactions.get(body.id)!.token };
}

beforeAll(async () => {
	sandbox = await startSandbox({ members: 300, workers: 2, seed: 5, now: clock.now });
	rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.bossToken);
	await rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), { body: commands });
});
afterAll(async () => {
	await sandbox.close();
});

describe('guild commands', () => {
	it('bulk overwrite assigns ids, keeps default_member_permissions as a string, and keeps ids across overwrites', async () => {
		const first = (await rest.get(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId))) as APIApplicationCommand[];
		expect(first.map((command) => command.name)).toEqual(['massnick', 'status']);
		expect(first[0]!.default_member_permissions).toBe('134217728');
		expect(first[0]!.id).toMatch(/^\d{18,19}$/);
		const again = (await rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), { body: commands })) as APIApplicationCommand[];
		expect(again.map((command) => command.id)).toEqual(first.map((command) => command.id));
	});

	it('refuses invalid names and descriptions with 50035 keyed by the command’s index', async () => {
		const error = await apiFailure(
			rest.put(Routes.applicationGuildCommands(sandbox.bossId, sandbox.guildId), { body: [{ name: 'Bad Name', description: '' }] }),
		);
		expect(error.status).toBe(400);
		expect(error.code).toBe(RESTJSONErrorCodes.InvalidFormBodyOrContentType);
		expect(error.message).toContain('0.name[APPLICATION_COMMAND_INVALID_NAME]');
		expect(error.message).toContain('0.description[BASE_TYPE_BAD_LENGTH]');
	});
});

describe('interaction callbacks', () => {
	it('dispatches INTERACTION_CREATE with typed options and resolved roles', async () => {
		const { id } = await invoke('massnick', { name: 'Pumpkin', role: 'Staff', dry_run: true });
		const payload = sandbox.state.interactions.get(id)!.payload as unknown as Record<string, any>;
		expect(payload).toMatchObject({
			type: 2,
			version: 1,
			context: 0,
			entitlements: [],
			authorizing_integration_owners: { '0': sandbox.guildId },
			guild_id: sandbox.guildId,
			application_id: sandbox.bossId,
		});
		expect(payload.channel.id).toBe(sandbox.channelId);
		expect(payload.member.user.id).toBe(sandbox.ownerId);
		expect(typeof payload.member.permissions).toBe('string');
		const staff = sandbox.state.guild.roleIds.Staff;
		expect(payload.data.options).toEqual([
			{ name: 'name', type: ApplicationCommandOptionType.String, value: 'Pumpkin' },
			{ name: 'role', type: ApplicationCommandOptionType.Role, value: staff },
			{ name: 'dry_run', type: ApplicationCommandOptionType.Boolean, value: true },
		]);
		expect(payload.data.resolved.roles[staff].name).toBe('Staff');
	});

	it('accepts a reply without Authorization (204), then 400/40060 for a second one', async () => {
		const { id, token } = await invoke('status');
		const noAuth = new REST({ api: sandbox.apiUrl });
		await noAuth.post(Routes.interactionCallback(id, token), {
			auth: false,
			body: { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'Working' } },
		});
		const error = await apiFailure(
			noAuth.post(Routes.interactionCallback(id, token), {
				auth: false,
				body: { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'Again' } },
			}),
		);
		expect(error.status).toBe(400);
		expect(error.code).toBe(RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged);
		const seen = await control<{ acknowledged: boolean; responses: Array<{ kind: string; type: number }> }>('GET', `/interactions/${id}`);
		expect(seen.body.acknowledged).toBe(true);
		expect(seen.body.responses).toMatchObject([{ kind: 'callback', type: 4 }]);
	});

	it('accepts a first response until 3 s after the interaction, and answers 404/10062 a millisecond later', async () => {
		const noAuth = new REST({ api: sandbox.apiUrl });
		const deferral = { auth: false, body: { type: InteractionResponseType.DeferredChannelMessageWithSource } } as const;
		const onTime = await invoke('status');
		clock.advance(FIRST_RESPONSE_DEADLINE_MS);
		await noAuth.post(Routes.interactionCallback(onTime.id, onTime.token), deferral);

		const late = await invoke('status');
		clock.advance(FIRST_RESPONSE_DEADLINE_MS + 1);
		const error = await apiFailure(noAuth.post(Routes.interactionCallback(late.id, late.token), deferral));
		expect(error.status).toBe(404);
		expect(error.code).toBe(RESTJSONErrorCodes.UnknownInteraction);
	});

	it('with_response=true returns the interaction, and the message as a resource only for a reply', async () => {
		const noAuth = new REST({ api: sandbox.apiUrl });
		const withResponse = { auth: false, query: new URLSearchParams({ with_response: 'true' }) } as const;
		const deferred = await invoke('status');
		const deferral = (await noAuth.post(Routes.interactionCallback(deferred.id, deferred.token), {
			...withResponse,
			body: { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } },
		})) as RESTPostAPIInteractionCallbackWithResponseResult;
		expect(deferral.interaction).toMatchObject({ id: deferred.id, response_message_loading: true, response_message_ephemeral: true });
		// A deferral creates no resource (Discord's docs: `message` only for a reply or an update).
		expect(deferral.resource).toBeUndefined();
		const placeholder = (await noAuth.get(Routes.webhookMessage(sandbox.bossId, deferred.token, '@original'), { auth: false })) as APIMessage;
		expect(placeholder.id).toBe(deferral.interaction.response_message_id);
		expect(placeholder.flags! & MessageFlags.Loading).toBe(MessageFlags.Loading);

		const replied = await invoke('status');
		const reply = (await noAuth.post(Routes.interactionCallback(replied.id, replied.token), {
			...withResponse,
			body: { type: InteractionResponseType.ChannelMessageWithSource, data: { content: 'Working' } },
		})) as RESTPostAPIInteractionCallbackWithResponseResult;
		expect(reply.interaction).toMatchObject({ id: replied.id, response_message_loading: false, response_message_ephemeral: false });
		expect(reply.resource?.type).toBe(InteractionResponseType.ChannelMessageWithSource);
		expect(reply.resource?.message?.content).toBe('Working');
	});

	it('edits @original and posts follow-ups for 15 minutes, and answers 401/50027 a millisecond later', async () => {
		const { id, token } = await invoke('status');
		const noAuth = new REST({ api: sandbox.apiUrl });
		await noAuth.post(Routes.interactionCallback(id, token), { auth: false, body: { type: InteractionResponseType.DeferredChannelMessageWithSource } });
		const edited = (await noAuth.patch(Routes.webhookMessage(sandbox.bossId, token, '@original'), {
			auth: false,
			body: { content: 'Done: 10 renamed' },
		})) as APIMessage;
		expect(edited.content).toBe('Done: 10 renamed');
		expect(edited.type).toBe(20);
		expect(edited.flags! & MessageFlags.Loading).toBe(0);
		const followUp = (await noAuth.post(Routes.webhook(sandbox.bossId, token), {
			auth: false,
			query: new URLSearchParams({ wait: 'true' }),
			body: { content: 'More' },
		})) as APIMessage;
		expect(followUp.id).not.toBe(edited.id);
		expect(((await noAuth.get(Routes.webhookMessage(sandbox.bossId, token, '@original'), { auth: false })) as APIMessage).content).toBe('Done: 10 renamed');

		clock.advance(TOKEN_LIFETIME_MS);
		const last = (await noAuth.patch(Routes.webhookMessage(sandbox.bossId, token, '@original'), {
			auth: false,
			body: { content: 'Done: 12 renamed' },
		})) as APIMessage;
		expect(last.content).toBe('Done: 12 renamed');
		clock.advance(1);
		const error = await apiFailure(noAuth.patch(Routes.webhookMessage(sandbox.bossId, token, '@original'), { auth: false, body: { content: 'too late' } }));
		expect(error.status).toBe(401);
		expect(error.code).toBe(RESTJSONErrorCodes.InvalidWebhookToken);
		const seen = await control<{ responses: Array<{ kind: string }> }>('GET', `/interactions/${id}`);
		expect(seen.body.responses.map((response) => response.kind)).toEqual(['callback', 'edit', 'followup', 'edit']);
	});

	it('answers an unknown command in the control API with 404 and a clear message', async () => {
		const { status, body } = await control<{ error: string }>('POST', '/interactions', { guildId: sandbox.guildId, userId: sandbox.ownerId, command: 'nope' });
		expect(status).toBe(404);
		expect(body.error).toContain('no command /nope');
	});
});

describe('with a real discord.js Client', () => {
	it('receives the command, replies, edits, and posts and edits a channel message the control API sees', async () => {
		// Its own sandbox with Discord's deadlines: a loaded machine must not fail this test.
		const real = await startSandbox({ members: 100, workers: 1, seed: 6 });
		const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: real.apiUrl } });
		try {
			const replied = new Promise<void>((resolve, reject) => {
				client.on(Events.InteractionCreate, (interaction) => {
					if (!interaction.isChatInputCommand()) return;
					void (async () => {
						expect(interaction.options.getString('name')).toBe('Ghost');
						expect(interaction.options.getRole('role')?.name).toBe('Staff');
						await interaction.deferReply({ flags: MessageFlags.Ephemeral });
						const reply = await interaction.editReply('Planned 42 renames');
						expect(reply.content).toBe('Planned 42 renames');
					})().then(resolve, reject);
				});
			});
			const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
			await client.login(real.bossToken);
			await ready;
			await client.guilds.cache.get(real.guildId)!.commands.set(commands);
			const { id } = await invoke('massnick', { name: 'Ghost', role: 'Staff' }, real);
			await replied;
			const seen = await control<{ ephemeral: boolean; responses: Array<{ kind: string }> }>('GET', `/interactions/${id}`, undefined, real);
			expect(seen.body.ephemeral).toBe(true);
			expect(seen.body.responses.map((response) => response.kind)).toEqual(['callback', 'edit']);

			const channel = (await client.channels.fetch(real.channelId)) as TextChannel;
			const progress = await channel.send('Progress: 0%');
			const edited = await progress.edit('Progress: 50%');
			expect(edited.editedTimestamp).not.toBeNull();
			const messages = await control<Array<{ id: string; content: string; edits: number }>>('GET', `/channels/${real.channelId}/messages`, undefined, real);
			expect(messages.body.find((message) => message.id === progress.id)).toMatchObject({ content: 'Progress: 50%', edits: 1 });
		} finally {
			await client.destroy();
			await real.close();
		}
	});
});
