import { Client, Events, GatewayDispatchEvents, GatewayIntentBits, type Guild } from 'discord.js';
import type { GatewayGuildMembersChunkDispatchData } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberId, startFakeSandbox, type FakeApp, type FakeSandbox } from './sandbox-gateway-host.js';
import { loginAll } from './support/loginAll.js';

const ONE = '200000000000000001';
const SMALL = '200000000000000002';
const LARGE = '200000000000000003';
const boss: FakeApp = { id: '100000000000000010', token: 'boss.token.0', username: 'Boss', privileged: GatewayIntentBits.GuildMembers };
const worker: FakeApp = { id: '100000000000000011', token: 'worker.token.1', username: 'Worker 1', privileged: GatewayIntentBits.GuildMembers };

describe('sandbox gateway: Request Guild Members (op 8) through GuildMemberManager#fetch', () => {
	let sandbox: FakeSandbox;
	let bossClient: Client;
	let workerClient: Client;
	/** What each GUILD_MEMBERS_CHUNK the boss received looked like, without keeping its members. */
	const chunks: Array<Omit<GatewayGuildMembersChunkDispatchData, 'members'> & { size: number }> = [];

	beforeAll(async () => {
		sandbox = await startFakeSandbox({
			apps: [boss, worker],
			guilds: [
				{ id: ONE, name: 'Just the bot', humans: 0, appIds: [boss.id] },
				{ id: SMALL, name: '2,500 members', humans: 2498, appIds: [boss.id, worker.id] },
				{ id: LARGE, name: '100,000 members', humans: 99_998, appIds: [boss.id, worker.id] },
			],
		});
		bossClient = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		workerClient = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl } });
		bossClient.on(Events.Raw, (packet: { t: string; d: GatewayGuildMembersChunkDispatchData }) => {
			if (packet.t !== GatewayDispatchEvents.GuildMembersChunk) return;
			const { members, ...rest } = packet.d;
			chunks.push({ ...rest, size: members.length });
		});
		await loginAll([
			[bossClient, boss.token],
			[workerClient, worker.token],
		]);
	});

	afterAll(async () => {
		await Promise.all([bossClient?.destroy(), workerClient?.destroy()]);
		await sandbox?.close();
	});

	const guild = (id: string): Guild => bossClient.guilds.cache.get(id)!;
	const chunksFor = (guildId: string) => chunks.filter((chunk) => chunk.guild_id === guildId);

	it('fetches a guild whose only member is the bot', async () => {
		const members = await guild(ONE).members.fetch();
		expect([...members.keys()]).toEqual([boss.id]);
		expect(chunksFor(ONE).map((chunk) => [chunk.chunk_index, chunk.chunk_count])).toEqual([[0, 1]]);
	});

	it('fetches 2,500 members in chunks of 1000, 1000 and 500, echoing the nonce', async () => {
		const members = await guild(SMALL).members.fetch();
		expect(members.size).toBe(2500);
		expect(members.has(memberId(2497))).toBe(true);
		const sent = chunksFor(SMALL);
		expect(sent.map((chunk) => chunk.size)).toEqual([1000, 1000, 500]);
		expect(sent.map((chunk) => chunk.chunk_index)).toEqual([0, 1, 2]);
		expect(new Set(sent.map((chunk) => chunk.chunk_count))).toEqual(new Set([3]));
		expect(sent[0]?.nonce).toMatch(/^\d{17,20}$/);
		expect(new Set(sent.map((chunk) => chunk.nonce)).size).toBe(1);
	});

	it('fetches all 100,000 members of a large guild', async () => {
		const members = await guild(LARGE).members.fetch();
		expect(members.size).toBe(100_000);
		expect(members.has(memberId(99_997))).toBe(true);
		expect(chunksFor(LARGE)).toHaveLength(100);
	});

	it('rejects a second whole-list fetch of the same guild within the window with GatewayRateLimitError', async () => {
		const error = await guild(SMALL)
			.members.fetch()
			.then(
				() => null,
				(caught: unknown) => caught,
			);
		expect(error).toMatchObject({ name: 'GatewayRateLimitError', data: { opcode: 8, meta: { guild_id: SMALL } } });
		const retryAfter = (error as { data: { retry_after: number } }).data.retry_after;
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(30);
	});

	it('limits per bot: another bot may still fetch the same guild', async () => {
		const workerWithIntent = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		try {
			const ready = new Promise((resolve) => workerWithIntent.once(Events.ClientReady, resolve));
			await workerWithIntent.login(worker.token);
			await ready;
			const members = await workerWithIntent.guilds.cache.get(SMALL)!.members.fetch();
			expect(members.size).toBe(2500);
		} finally {
			await workerWithIntent.destroy();
		}
	});

	it('ignores op 8 from a session without the GuildMembers intent', async () => {
		await expect(workerClient.guilds.cache.get(SMALL)!.members.fetch({ time: 500 } as never)).rejects.toMatchObject({
			code: 'GuildMembersTimeout',
		});
	});

	it('answers user_ids with the members found and not_found for the rest', async () => {
		const stranger = '399999999999999999';
		const notFound = new Promise<unknown>((resolve) => bossClient.once(Events.GuildMembersChunk, (_members, _guild, chunk) => resolve(chunk.notFound)));
		const members = await guild(SMALL).members.fetch({ user: [memberId(5), stranger] });
		expect([...members.keys()]).toEqual([memberId(5)]);
		expect(await notFound).toEqual([stranger]);
	});

	it('answers a username query with at most limit members whose name starts with it', async () => {
		const members = await guild(SMALL).members.fetch({ query: 'MEMBER1', limit: 5 });
		expect(members.map((member) => member.user.username)).toEqual(['member1', 'member10', 'member11', 'member12', 'member13']);
	});
});
