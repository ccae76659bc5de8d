import { GatewayDispatchEvents, type GatewayGuildMemberAddDispatchData } from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, SnowflakeUtil } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { loginAll } from './support/loginAll.js';
import { ManualClock } from './support/ManualClock.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * The control call that stages a join burst: young accounts joining one after another over a
 * window from now, each announced by GUILD_MEMBER_ADD when it joins, as a standing rule meets a
 * raid (the join-burst bench stages 5,000 in a minute this way).
 */
const DAY = 86_400_000;

describe('POST /_sandbox/guilds/{g}/join-burst', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let client: Client;
	const added: GatewayGuildMemberAddDispatchData[] = [];

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 100, workers: 1, seed: 52, timeScale: 50 });
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

	it('announces each joiner when it joins, in id order, with joined_at then, and discord.js caches them', async () => {
		const from = added.length;
		const staged = Date.now();
		const { ids, joinsAt } = await control.stageJoinBurst(sandbox.guildId, { count: 60, windowMs: 400 });
		expect(ids).toHaveLength(60);
		expect(joinsAt.every((at) => at >= staged && at <= staged + 1000)).toBe(true);
		await waitUntil(() => added.length >= from + 60, { what: '60 GUILD_MEMBER_ADDs' });
		const events = added.slice(from);
		expect(events.map((event) => event.user.id)).toEqual(ids);
		const joins = events.map((event) => Date.parse(event.joined_at!));
		expect(joins).toEqual([...joins].sort((a, b) => a - b));
		joins.forEach((joined, n) => expect(joined).toBeGreaterThanOrEqual(joinsAt[n]!));
		// Over the window, not all at one instant.
		expect(joins.at(-1)! - joins[0]!).toBeGreaterThan(200);
		const guild = client.guilds.cache.get(sandbox.guildId)!;
		await waitUntil(() => ids.every((id) => guild.members.cache.has(id)), { what: 'discord.js to cache the joiners' });
	});

	it('refuses a missing count or window with 400', async () => {
		await expect(control.stageJoinBurst(sandbox.guildId, { count: 0, windowMs: 1000 })).rejects.toThrow(/count/);
		await expect(control.stageJoinBurst(sandbox.guildId, { count: 1, windowMs: -1 })).rejects.toThrow(/windowMs/);
	});
});

describe('a join burst on the sandbox clock', () => {
	it('joins no one before their time: each joins once the clock reaches it, accounts made within the day before, spread over the id space', async () => {
		const clock = new ManualClock(Date.UTC(2026, 0, 1));
		const alone = await startSandbox({ members: 50, workers: 1, seed: 8, now: clock.now });
		try {
			const aloneControl = new SandboxControl(alone.controlUrl);
			const before = alone.state.members.size;
			const stagedAt = clock.now();
			const { ids, joinsAt } = await aloneControl.stageJoinBurst(alone.guildId, { count: 300, windowMs: 60_000, accountAgeMs: DAY });
			const dueBy = (at: number): number => joinsAt.filter((due) => due <= at).length;
			expect(alone.state.members.size).toBe(before + dueBy(stagedAt));

			clock.advance(30_000);
			await waitUntil(() => alone.state.members.size === before + dueBy(clock.now()), { what: 'the first half minute’s joiners' });
			expect(dueBy(clock.now())).toBeGreaterThan(100);
			expect(dueBy(clock.now())).toBeLessThan(200);
			clock.advance(30_000);
			await waitUntil(() => alone.state.members.size === before + 300, { what: 'every joiner' });

			const members = new Map((await aloneControl.members(alone.guildId)).map((member) => [member.id, member]));
			const made = ids.map((id) => SnowflakeUtil.timestampFrom(id));
			for (const [n, id] of ids.entries()) {
				const joined = Date.parse(members.get(id)!.joinedAt);
				// Joined at the first look at the clock past its time: here the two advances.
				expect(joined).toBe(joinsAt[n]! <= stagedAt ? stagedAt : joinsAt[n]! <= stagedAt + 30_000 ? stagedAt + 30_000 : stagedAt + 60_000);
				expect(made[n]).toBeGreaterThanOrEqual(stagedAt - DAY);
				expect(made[n]).toBeLessThanOrEqual(stagedAt);
			}
			expect([...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))).toEqual(ids);
			// The part of the id space each of ten workers owns, (id >> 22) % 10: all of them, about alike.
			const parts = new Map<number, number>();
			for (const ms of made) parts.set(ms % 10, (parts.get(ms % 10) ?? 0) + 1);
			expect(parts.size).toBe(10);
			expect(Math.min(...parts.values())).toBeGreaterThan(10);
		} finally {
			await alone.close();
		}
	});
});
