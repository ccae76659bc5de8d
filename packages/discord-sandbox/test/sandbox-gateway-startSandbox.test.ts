import { Client, Events, GatewayDispatchEvents, GatewayIntentBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { waitFor } from './sandbox-gateway-host.js';
import { loginAll } from './support/loginAll.js';

/** The gateway as `startSandbox` wires it: the real state behind the host, one boss and two workers. */
describe('sandbox gateway inside startSandbox', () => {
	let sandbox: Sandbox;
	let boss: Client;
	let workers: Client[];
	const workerRaw: Array<Array<{ t: string; d: unknown }>> = [[], []];

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 2500, workers: 2, seed: 7 });
		boss = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		workers = sandbox.workerTokens.map(() => new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } }));
		workers.forEach((worker, index) => worker.on(Events.Raw, (packet: { t: string; d: unknown }) => workerRaw[index]!.push(packet)));
		await loginAll([[boss, sandbox.bossToken], ...workers.map((worker, index) => [worker, sandbox.workerTokens[index]!] as const)]);
	});

	afterAll(async () => {
		await Promise.all([boss?.destroy(), ...(workers ?? []).map((worker) => worker.destroy())]);
		await sandbox?.close();
	});

	it('every bot reaches clientReady with the guild cached', () => {
		for (const client of [boss, ...workers]) {
			const guild = client.guilds.cache.get(sandbox.guildId);
			expect(guild?.available).toBe(true);
			expect(guild?.roles.everyone.id).toBe(sandbox.guildId);
			expect(guild?.channels.cache.has(sandbox.channelId)).toBe(true);
			expect(guild?.members.me?.id).toBe(client.user?.id);
		}
		expect(sandbox.gateway.connections().filter((c) => c.state === 'ready')).toHaveLength(3);
	});

	it('the boss fetches every member of the guild', async () => {
		const members = await boss.guilds.cache.get(sandbox.guildId)!.members.fetch();
		expect(members.size).toBe(sandbox.state.members.size);
		expect(members.has(sandbox.ownerId)).toBe(true);
	});

	it('a nickname change reaches the boss, and a worker only when it is the member renamed', async () => {
		const humanIndex = sandbox.state.memberIndex(sandbox.guildId, sandbox.ownerId);
		const workerIndex = sandbox.state.memberIndex(sandbox.guildId, sandbox.workerIds[0]!);
		const updated = new Promise((resolve) => boss.on(Events.GuildMemberUpdate, (_old, member) => member.id === sandbox.workerIds[0] && resolve(member)));
		sandbox.state.setNick(humanIndex, 'Owner renamed', null);
		sandbox.state.setNick(workerIndex, 'Worker renamed', null);
		await updated;
		await waitFor(() => workers[0]!.guilds.cache.get(sandbox.guildId)?.members.me?.nickname === 'Worker renamed', 'the worker to hear about its own nickname');
		expect(boss.guilds.cache.get(sandbox.guildId)!.members.cache.get(sandbox.ownerId)?.nickname).toBe('Owner renamed');
		const updatesTo = (raw: Array<{ t: string; d: unknown }>) =>
			raw.filter((p) => p.t === GatewayDispatchEvents.GuildMemberUpdate).map((p) => (p.d as { user: { id: string } }).user.id);
		expect(updatesTo(workerRaw[0]!)).toEqual([sandbox.workerIds[0]]);
		expect(updatesTo(workerRaw[1]!)).toEqual([]);
	});

	it('a worker resumes after its connection is closed and misses nothing', async () => {
		const worker = workers[1]!;
		const resumed = new Promise<void>((resolve) => worker.ws.shards.get(0)!.once('resumed', () => resolve()));
		expect(sandbox.gateway.closeConnections({ appId: sandbox.workerIds[1] })).toBe(1);
		sandbox.state.setNick(sandbox.state.memberIndex(sandbox.guildId, sandbox.workerIds[1]!), 'Renamed while away', null);
		await resumed;
		await waitFor(() => worker.guilds.cache.get(sandbox.guildId)?.members.me?.nickname === 'Renamed while away', 'the update sent during the outage');
		expect(workerRaw[1]!.filter((p) => p.t === GatewayDispatchEvents.Ready)).toHaveLength(1);
	});
});
