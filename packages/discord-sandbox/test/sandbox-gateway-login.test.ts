import { Client, Events, GatewayDispatchEvents, GatewayIntentBits, type Interaction } from 'discord.js';
import { ChannelType, InteractionType } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId, startFakeSandbox, waitFor, type FakeApp, type FakeSandbox } from './sandbox-gateway-host.js';
import { loginAll } from './support/loginAll.js';

const GUILD_ID = '200000000000000000';
const boss: FakeApp = { id: '100000000000000010', token: 'boss.token.0', username: 'Boss', privileged: GatewayIntentBits.GuildMembers };
const worker: FakeApp = { id: '100000000000000011', token: 'worker.token.1', username: 'Worker 1', privileged: GatewayIntentBits.GuildMembers };
const plain: FakeApp = { id: '100000000000000012', token: 'plain.token.2', username: 'Plain', privileged: 0 };

describe('sandbox gateway: logging in with discord.js', () => {
	let sandbox: FakeSandbox;
	let bossClient: Client;
	let workerClient: Client;
	const bossRaw: Array<{ t: string; d: unknown }> = [];
	const workerRaw: Array<{ t: string; d: unknown }> = [];
	const others: Client[] = [];

	function client(intents: number[]): Client {
		const created = new Client({ intents, rest: { api: sandbox.apiUrl } });
		others.push(created);
		return created;
	}

	beforeAll(async () => {
		sandbox = await startFakeSandbox({
			apps: [boss, worker, plain],
			guilds: [{ id: GUILD_ID, name: 'Test Guild', humans: 3, appIds: [boss.id, worker.id, plain.id] }],
			timing: { heartbeatIntervalMs: 300 },
			restOnlyTokens: ['revoked.token.9'],
		});
		bossClient = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		workerClient = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
		bossClient.on(Events.Raw, (packet: { t: string; d: unknown }) => bossRaw.push(packet));
		workerClient.on(Events.Raw, (packet: { t: string; d: unknown }) => workerRaw.push(packet));
		await loginAll([
			[bossClient, boss.token],
			[workerClient, worker.token],
		]);
	});

	afterAll(async () => {
		await Promise.all([bossClient?.destroy(), workerClient?.destroy(), ...others.map((c) => c.destroy())]);
		await sandbox?.close();
	});

	it('reaches clientReady with the guild, its roles and channels cached', () => {
		expect(bossClient.user?.id).toBe(boss.id);
		expect(bossClient.application?.id).toBe(boss.id);
		const guild = bossClient.guilds.cache.get(GUILD_ID);
		expect(guild?.name).toBe('Test Guild');
		expect(guild?.available).toBe(true);
		expect(guild?.roles.everyone.id).toBe(GUILD_ID);
		expect(guild?.roles.cache.size).toBe(2);
		expect(guild?.channels.cache.first()?.type).toBe(ChannelType.GuildText);
		expect(guild?.members.me?.id).toBe(boss.id);
		expect(guild?.memberCount).toBe(6);
	});

	it('numbers dispatches per session from 1, READY first and GUILD_CREATE right after', () => {
		const ready = bossRaw.find((p) => p.t === GatewayDispatchEvents.Ready) as { s: number; d: Record<string, unknown> } | undefined;
		const guildCreate = bossRaw.find((p) => p.t === GatewayDispatchEvents.GuildCreate) as { s: number } | undefined;
		expect(ready?.s).toBe(1);
		expect(guildCreate?.s).toBe(2);
		expect(ready?.d).toMatchObject({
			v: 10,
			guilds: [{ id: GUILD_ID, unavailable: true }],
			resume_gateway_url: `ws://127.0.0.1:${sandbox.port}/gateway`,
			shard: [0, 1],
			application: { id: boss.id, flags: 0 },
		});
	});

	it('acknowledges heartbeats, so the client measures a ping and stays connected', async () => {
		await waitFor(() => bossClient.ws.ping >= 0, 'a heartbeat ACK');
		expect(sandbox.gateway.connections().filter((c) => c.state === 'ready')).toHaveLength(2);
	});

	it('rejects login when /gateway/bot refuses the token', async () => {
		await expect(client([GatewayIntentBits.Guilds]).login('unknown.token.7')).rejects.toMatchObject({ code: 'TokenInvalid' });
	});

	it('closes with 4004 when the gateway refuses the token, and login fails', async () => {
		const rejected = client([GatewayIntentBits.Guilds]);
		const codes: number[] = [];
		rejected.on(Events.ShardDisconnect, (event) => codes.push(event.code));
		await expect(rejected.login('revoked.token.9')).rejects.toThrow('Authentication failed');
		expect(codes).toEqual([4004]);
	});

	it('closes with 4014 when a privileged intent is not enabled for the app, and login fails', async () => {
		const disallowed = client([GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers]);
		const codes: number[] = [];
		disallowed.on(Events.ShardDisconnect, (event) => codes.push(event.code));
		await expect(disallowed.login(plain.token)).rejects.toThrow('Used disallowed intents');
		expect(codes).toEqual([4014]);
	});

	/** Sends an event nobody has a handler for to one app; once it arrives, everything before it has too. */
	async function barrier(appId: string, raw: Array<{ t: string; d: unknown }>): Promise<void> {
		const id = String(Date.now()) + String(Math.random()).slice(2, 8);
		sandbox.host.emit({ guildId: GUILD_ID, t: GatewayDispatchEvents.IntegrationCreate, d: { id, guild_id: GUILD_ID }, intent: null, appId });
		await waitFor(() => raw.some((p) => (p.d as { id?: string } | null)?.id === id), `barrier for ${appId}`);
	}

	it('delivers INTERACTION_CREATE only to the app that owns the command', async () => {
		const received = new Promise<Interaction>((resolve) => bossClient.once(Events.InteractionCreate, resolve));
		sandbox.host.emit({ guildId: GUILD_ID, t: GatewayDispatchEvents.InteractionCreate, d: interaction(boss.id), intent: null, appId: boss.id });
		const delivered = await received;
		expect(delivered.isChatInputCommand() && delivered.commandName).toBe('rename');
		await barrier(worker.id, workerRaw);
		expect(workerRaw.some((p) => p.t === GatewayDispatchEvents.InteractionCreate)).toBe(false);
	});

	it('delivers GUILD_MEMBER_UPDATE only to sessions with the GuildMembers intent, and to the member bot itself', async () => {
		const human = memberUpdate(memberId(1), 'member1', 'Renamed');
		sandbox.host.emit({
			guildId: GUILD_ID,
			t: GatewayDispatchEvents.GuildMemberUpdate,
			d: human,
			intent: GatewayIntentBits.GuildMembers,
			alsoToUserId: memberId(1),
		});
		const self = memberUpdate(worker.id, worker.username, 'Worker renamed');
		sandbox.host.emit({
			guildId: GUILD_ID,
			t: GatewayDispatchEvents.GuildMemberUpdate,
			d: self,
			intent: GatewayIntentBits.GuildMembers,
			alsoToUserId: worker.id,
		});
		await barrier(boss.id, bossRaw);
		await barrier(worker.id, workerRaw);
		const updatesTo = (raw: Array<{ t: string; d: unknown }>) =>
			raw.filter((p) => p.t === GatewayDispatchEvents.GuildMemberUpdate).map((p) => (p.d as { user: { id: string } }).user.id);
		expect(updatesTo(bossRaw)).toEqual([memberId(1), worker.id]);
		expect(updatesTo(workerRaw)).toEqual([worker.id]);
		expect(workerClient.guilds.cache.get(GUILD_ID)?.members.me?.nickname).toBe('Worker renamed');
	});

	it('drops events for guilds the bot is not in', async () => {
		sandbox.host.emit({
			guildId: '200000000000000099',
			t: GatewayDispatchEvents.GuildMemberUpdate,
			d: memberUpdate(memberId(2), 'member2', 'x'),
			intent: GatewayIntentBits.GuildMembers,
		});
		await barrier(boss.id, bossRaw);
		expect(bossRaw.some((p) => (p.d as { guild_id?: string } | null)?.guild_id === '200000000000000099')).toBe(false);
	});

	it('never logs a token', () => {
		const logged = JSON.stringify(sandbox.host.logs);
		expect(logged).toContain('identified');
		for (const token of [boss.token, worker.token, plain.token, 'revoked.token.9']) expect(logged).not.toContain(token);
	});
});

function memberUpdate(userId: string, username: string, nick: string) {
	return {
		guild_id: GUILD_ID,
		user: { id: userId, username, discriminator: '0', global_name: null, avatar: null },
		roles: [],
		nick,
		avatar: null,
		joined_at: '2024-01-01T00:00:00.000Z',
		premium_since: null,
		deaf: false,
		mute: false,
		pending: false,
		flags: 0,
	};
}

function interaction(appId: string) {
	const channel = { id: String(BigInt(GUILD_ID) + 2n), type: ChannelType.GuildText, guild_id: GUILD_ID, name: 'general', permissions: '8' };
	return {
		id: '400000000000000001',
		application_id: appId,
		type: InteractionType.ApplicationCommand,
		data: { id: '500000000000000001', name: 'rename', type: 1, options: [], guild_id: GUILD_ID },
		guild: { id: GUILD_ID, locale: 'en-US', features: [] },
		guild_id: GUILD_ID,
		channel,
		channel_id: channel.id,
		member: {
			user: { id: memberId(0), username: 'member0', discriminator: '0', global_name: null, avatar: null },
			roles: [],
			permissions: '8',
			nick: null,
			joined_at: '2024-01-01T00:00:00.000Z',
			deaf: false,
			mute: false,
			flags: 0,
		},
		token: 'interaction-token',
		version: 1,
		app_permissions: '8',
		locale: 'en-US',
		guild_locale: 'en-US',
		entitlements: [],
		authorizing_integration_owners: { '0': GUILD_ID },
		context: 0,
		attachment_size_limit: 8_388_608,
	};
}
