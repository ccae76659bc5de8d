import { GatewayDispatchEvents, type GatewayGuildMemberAddDispatchData } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, SnowflakeUtil } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { loginAll } from './support/loginAll.js';
import { ManualClock } from './support/ManualClock.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * The control call that stages a raid: fresh accounts with one name pattern joining within minutes,
 * among real people joining in the same window, each announced by GUILD_MEMBER_ADD, and seeded.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let client: Client;
const added: GatewayGuildMemberAddDispatchData[] = [];
const MINUTE = 60_000;

beforeAll(async () => {
	sandbox = await startSandbox({ members: 100, workers: 1, seed: 51, timeScale: 50 });
	control = new SandboxControl(sandbox.controlUrl);
	client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl, retries: 0 } });
	client.on(Events.Raw, (packet: { t: string; d: GatewayGuildMemberAddDispatchData }) => {
		if (packet.t === GatewayDispatchEvents.GuildMemberAdd) added.push(packet.d);
	});
	await loginAll([[client, sandbox.bossToken]]);
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

describe('POST /_sandbox/guilds/{g}/raid', () => {
	it('adds raid accounts made minutes before they joined, named from the pattern, among older real accounts, all joined within the window', async () => {
		const before = sandbox.state.members.size;
		const staged = Date.now();
		const { raidIds, realIds } = await control.stageRaid(sandbox.guildId, { count: 60, realJoiners: 15, windowMs: 10 * MINUTE, accountAgeMs: 5 * MINUTE });
		expect([raidIds.length, realIds.length, new Set([...raidIds, ...realIds]).size]).toEqual([60, 15, 75]);
		expect(sandbox.state.members.size).toBe(before + 75);
		const members = new Map((await control.members(sandbox.guildId)).map((member) => [member.id, member]));
		for (const id of [...raidIds, ...realIds]) {
			const member = members.get(id)!;
			const joined = Date.parse(member.joinedAt);
			expect(joined).toBeGreaterThanOrEqual(staged - 10 * MINUTE - 1000);
			expect(joined).toBeLessThanOrEqual(Date.now());
			expect(member.roles).toEqual([]);
			const created = SnowflakeUtil.timestampFrom(id);
			expect(created).toBeLessThanOrEqual(joined);
			if (raidIds.includes(id)) expect(joined - created).toBeLessThanOrEqual(5 * MINUTE);
			else expect(joined - created).toBeGreaterThan(7 * 24 * 60 * MINUTE);
		}
		const numbers = raidIds.map((id) => /^free nitro (\d+)$/.exec(members.get(id)!.globalName ?? '')?.[1]);
		expect(numbers.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n + 1));
		expect(members.get(raidIds[0]!)!.username).toMatch(/^free_nitro_\d+$/);
		expect(realIds.every((id) => !/free nitro/.test(members.get(id)!.globalName ?? ''))).toBe(true);
		// Spread over the window, not all at one instant.
		const joins = raidIds.map((id) => Date.parse(members.get(id)!.joinedAt));
		expect(Math.max(...joins) - Math.min(...joins)).toBeGreaterThan(5 * MINUTE);
	});

	it('announces every joiner with GUILD_MEMBER_ADD in join order, and discord.js caches them', async () => {
		const from = added.length;
		const { raidIds, realIds } = await control.stageRaid(sandbox.guildId, { count: 20, realJoiners: 5, names: 'dm me {n}', seed: 2 });
		await waitUntil(() => added.length >= from + 25, { what: '25 GUILD_MEMBER_ADDs' });
		const events = added.slice(from);
		expect(new Set(events.map((event) => event.user.id))).toEqual(new Set([...raidIds, ...realIds]));
		const joins = events.map((event) => Date.parse(event.joined_at!));
		expect(joins).toEqual([...joins].sort((a, b) => a - b));
		const guild = client.guilds.cache.get(sandbox.guildId)!;
		await waitUntil(() => raidIds.every((id) => guild.members.cache.has(id)), { what: 'discord.js to cache the raid' });
		expect(guild.members.cache.get(raidIds[0]!)!.user.globalName).toMatch(/^dm me \d+$/);
	});

	it('refuses a missing count and a bad pattern with 400', async () => {
		await expect(control.stageRaid(sandbox.guildId, { count: 0 })).rejects.toThrow(/count/);
		await expect(control.stageRaid(sandbox.guildId, { count: 1, names: '' })).rejects.toThrow(/names/);
	});

	it('a second wave staged seconds after the first spreads its accounts over those seconds, each its own millisecond, real joiners before the raid', async () => {
		const clock = new ManualClock(Date.UTC(2026, 0, 1));
		const alone = await startSandbox({ members: 50, workers: 1, seed: 7, now: clock.now });
		try {
			const aloneControl = new SandboxControl(alone.controlUrl);
			const first = await aloneControl.stageRaid(alone.guildId, { count: 200 });
			const newest = Math.max(...first.raidIds.map((id) => SnowflakeUtil.timestampFrom(id)));
			clock.advance(10_000);
			const { raidIds, realIds } = await aloneControl.stageRaid(alone.guildId, { count: 200, realJoiners: 20, seed: 2 });
			const made = (ids: string[]): number[] => ids.map((id) => SnowflakeUtil.timestampFrom(id));
			const raid = made(raidIds);
			for (const ms of [...raid, ...made(realIds)]) expect(ms).toBeGreaterThan(newest);
			for (const ms of [...raid, ...made(realIds)]) expect(ms).toBeLessThanOrEqual(clock.now());
			expect(new Set(raid).size).toBeGreaterThan(190);
			// The part of the id space each of ten workers owns: (id >> 22) % 10.
			expect(new Set(raid.map((ms) => ms % 10)).size).toBe(10);
			expect(Math.max(...made(realIds))).toBeLessThanOrEqual(Math.min(...raid));
		} finally {
			await alone.close();
		}
	});

	it('stages the same raid from the same seed and clock: same ids, names and join times', async () => {
		const stage = async (): Promise<unknown> => {
			const clock = new ManualClock(Date.UTC(2026, 0, 1));
			const alone = await startSandbox({ members: 50, workers: 1, seed: 7, now: clock.now });
			try {
				const { raidIds, realIds } = await new SandboxControl(alone.controlUrl).stageRaid(alone.guildId, { count: 10, realJoiners: 3 });
				const members = await new SandboxControl(alone.controlUrl).members(alone.guildId);
				return members
					.filter((member) => [...raidIds, ...realIds].includes(member.id))
					.map(({ id, username, globalName, joinedAt }) => ({ id, username, globalName, joinedAt }));
			} finally {
				await alone.close();
			}
		};
		const first = await stage();
		expect(first).toHaveLength(13);
		expect(await stage()).toEqual(first);
	});
});
