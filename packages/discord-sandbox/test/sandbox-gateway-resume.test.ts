import { Client, Events, GatewayDispatchEvents, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId, startFakeSandbox, waitFor, type FakeApp, type FakeSandbox } from './sandbox-gateway-host.js';
import { loginAll } from './support/loginAll.js';

const GUILD_ID = '200000000000000000';
const boss: FakeApp = { id: '100000000000000010', token: 'boss.token.0', username: 'Boss', privileged: GatewayIntentBits.GuildMembers };
const worker: FakeApp = { id: '100000000000000011', token: 'worker.token.1', username: 'Worker 1', privileged: GatewayIntentBits.GuildMembers };

describe('sandbox gateway: resuming with discord.js', () => {
	let sandbox: FakeSandbox;
	let bossClient: Client;
	let workerClient: Client;
	const bossRaw: Array<{ t: string; s: number; d: unknown }> = [];
	const workerRaw: Array<{ t: string; s: number; d: unknown }> = [];

	beforeAll(async () => {
		sandbox = await startFakeSandbox({
			apps: [boss, worker],
			guilds: [{ id: GUILD_ID, name: 'Test Guild', humans: 100, appIds: [boss.id, worker.id] }],
		});
		bossClient = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		workerClient = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		bossClient.on(Events.Raw, (packet: { t: string; s: number; d: unknown }) => bossRaw.push(packet));
		workerClient.on(Events.Raw, (packet: { t: string; s: number; d: unknown }) => workerRaw.push(packet));
		await loginAll([
			[bossClient, boss.token],
			[workerClient, worker.token],
		]);
	});

	afterAll(async () => {
		await Promise.all([bossClient?.destroy(), workerClient?.destroy()]);
		await sandbox?.close();
	});

	const sessionId = (client: Client): string | undefined =>
		(client.ws.shards.get(0) as unknown as { sessionInfo?: { sessionId: string } } | undefined)?.sessionInfo?.sessionId;
	const count = (raw: Array<{ t: string }>, t: string): number => raw.filter((packet) => packet.t === t).length;

	function emitMemberUpdates(from: number, to: number): void {
		for (let index = from; index < to; index++) {
			sandbox.host.emit({
				guildId: GUILD_ID,
				t: GatewayDispatchEvents.GuildMemberUpdate,
				d: {
					guild_id: GUILD_ID,
					user: { id: memberId(index % 100), username: `member${index % 100}`, discriminator: '0', global_name: null, avatar: null },
					roles: [],
					nick: `nick ${index}`,
					avatar: null,
					joined_at: '2024-01-01T00:00:00.000Z',
					deaf: false,
					mute: false,
					flags: 0,
				},
				intent: GatewayIntentBits.GuildMembers,
			});
		}
	}

	it('resumes the same session after closeConnections() and loses none of the events sent meanwhile', async () => {
		const before = sessionId(bossClient);
		const updatesBefore = count(bossRaw, GatewayDispatchEvents.GuildMemberUpdate);
		const resumed = new Promise<void>((resolve) => bossClient.ws.shards.get(0)!.once('resumed', () => resolve()));

		expect(sandbox.gateway.closeConnections({ appId: boss.id })).toBe(1);
		emitMemberUpdates(0, 200);
		await waitFor(() => sandbox.gateway.connections().some((c) => c.appId === boss.id && c.state === 'closed'), 'the session to wait for resume');
		emitMemberUpdates(200, 300);
		await resumed;
		emitMemberUpdates(300, 310);

		await waitFor(() => count(bossRaw, GatewayDispatchEvents.GuildMemberUpdate) === updatesBefore + 310, 'all 310 updates');
		expect(sessionId(bossClient)).toBe(before);
		await waitFor(() => count(bossRaw, GatewayDispatchEvents.Resumed) === 1, 'RESUMED');
		expect(count(bossRaw, GatewayDispatchEvents.Ready)).toBe(1);
		const nicks = bossRaw
			.filter((packet) => packet.t === GatewayDispatchEvents.GuildMemberUpdate)
			.slice(updatesBefore)
			.map((packet) => (packet.d as { nick: string }).nick);
		expect(nicks).toEqual(Array.from({ length: 310 }, (_, index) => `nick ${index}`));
		const sequences = bossRaw.map((packet) => packet.s);
		expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
		expect(new Set(sequences).size).toBe(sequences.length);
	});

	it('closing one app leaves the other app connected and receiving', async () => {
		const workerUpdates = count(workerRaw, GatewayDispatchEvents.GuildMemberUpdate);
		expect(workerUpdates).toBeGreaterThanOrEqual(310);
		expect(count(workerRaw, GatewayDispatchEvents.Resumed)).toBe(0);
	});

	it('resumes after requestReconnect() (op 7)', async () => {
		const before = sessionId(workerClient);
		const resumed = new Promise<void>((resolve) => workerClient.ws.shards.get(0)!.once('resumed', () => resolve()));
		expect(sandbox.gateway.requestReconnect({ appId: worker.id })).toBe(1);
		emitMemberUpdates(0, 20);
		await resumed;
		// The shard's 'resumed' fires before the RESUMED packet is re-emitted as 'raw'.
		await waitFor(() => count(workerRaw, GatewayDispatchEvents.Resumed) === 1, 'RESUMED');
		expect(sessionId(workerClient)).toBe(before);
		expect(count(workerRaw, GatewayDispatchEvents.Ready)).toBe(1);
		await waitFor(() => count(workerRaw, GatewayDispatchEvents.GuildMemberUpdate) === 330, 'the updates sent around the reconnect');
	});

	it('lists both sessions as ready again', async () => {
		await waitFor(() => sandbox.gateway.connections().filter((c) => c.state === 'ready').length === 2, 'both sessions to be ready');
		expect(
			sandbox.gateway
				.connections()
				.map((c) => c.appId)
				.sort(),
		).toEqual([boss.id, worker.id]);
		expect(sandbox.gateway.connections().every((c) => c.intents === (GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers))).toBe(true);
	});
});
