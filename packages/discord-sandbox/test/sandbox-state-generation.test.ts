import { createHash } from 'node:crypto';
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { resolveSandboxOptions } from '../src/SandboxOptions.js';
import { SandboxOptionError } from '../src/SandboxOptionError.js';
import { generateGuild } from '../src/state/generateGuild.js';
import { MemberStore } from '../src/state/MemberStore.js';
import { DISCORD_EPOCH, makeSnowflake, snowflakeTimestamp } from '../src/state/snowflake.js';

function firstMembers(seed: number, count: number) {
	const guild = generateGuild({ members: 1000, workers: 3, seed });
	return {
		guild,
		members: Array.from({ length: count }, (_, index) => ({
			id: guild.members.idAt(index).toString(),
			username: guild.members.username(index),
			globalName: guild.members.globalName(index),
			nick: guild.members.nick(index),
			roles: guild.members.roles(index),
			joinedAt: guild.members.joinedAt(index),
		})),
	};
}

describe('snowflakes', () => {
	it('match Discord’s documented example 175928847299117063 (2016-04-30 11:18:25.796 UTC)', () => {
		expect(makeSnowflake(Date.UTC(2016, 3, 30, 11, 18, 25, 796), 1, 0, 7)).toBe(175928847299117063n);
		expect(snowflakeTimestamp('175928847299117063')).toBe(1_462_015_105_796);
		expect(makeSnowflake(DISCORD_EPOCH)).toBe(0n);
	});
});

describe('generateGuild', () => {
	it('is deterministic: the same seed gives the same members, guild and tokens', () => {
		const a = firstMembers(42, 100);
		const b = firstMembers(42, 100);
		expect(a.members).toEqual(b.members);
		expect(a.guild.id).toBe(b.guild.id);
		expect(a.guild.apps.map((app) => [app.id, app.token])).toEqual(b.guild.apps.map((app) => [app.id, app.token]));
		const c = firstMembers(43, 100);
		expect(c.members[0]!.id).not.toBe(a.members[0]!.id);
		expect(c.guild.apps[0]!.token).not.toBe(a.guild.apps[0]!.token);
	});

	it('gives the Server Members intent to the boss alone unless the workers are asked to have it', () => {
		const alone = generateGuild({ members: 10, workers: 3, seed: 1 });
		expect(alone.apps.map((app) => [app.role, app.membersIntent])).toEqual([
			['boss', true],
			['worker', false],
			['worker', false],
			['worker', false],
		]);
		const all = generateGuild({ members: 10, workers: 3, seed: 1, workerMembersIntent: true });
		expect(all.apps.every((app) => app.membersIntent)).toBe(true);
	});

	it('spreads creation times at random from 2015 on, so (id >> 22) % N splits members evenly', () => {
		const { members } = generateGuild({ members: 10_000, workers: 10, seed: 1 });
		const timestamps: number[] = [];
		const residues = new Array<number>(10).fill(0);
		let previous = 0n;
		let ascending = true;
		const digits = new Set<number>();
		for (let index = 0; index < members.length; index++) {
			const id = members.idAt(index);
			ascending &&= id > previous;
			previous = id;
			digits.add(id.toString().length);
			timestamps.push(snowflakeTimestamp(id));
			residues[Number((id >> 22n) % 10n)]!++;
		}
		expect(ascending).toBe(true);
		expect([...digits].every((length) => length === 18 || length === 19)).toBe(true);
		expect(new Set(timestamps).size).toBe(timestamps.length);
		for (const index of [0, 5000, members.length - 1]) expect(Date.parse(members.joinedAt(index))).toBeGreaterThanOrEqual(timestamps[index]!);
		expect(timestamps[0]).toBeGreaterThanOrEqual(Date.UTC(2015, 0, 1));
		for (const count of residues) {
			expect(count).toBeGreaterThan(850);
			expect(count).toBeLessThan(1150);
		}
		// Not a regular step: gaps between neighbours vary widely.
		const gaps = timestamps.slice(1).map((t, i) => t - timestamps[i]!);
		expect(Math.max(...gaps)).toBeGreaterThan(10 * Math.min(...gaps) + 1000);
	});

	it('builds the role ladder: @everyone = guild id, member roles < bots < Moderator < Admin', () => {
		const guild = generateGuild({ members: 1000, workers: 2, seed: 1 });
		const byName = new Map(guild.roles.map((role) => [role.name, role]));
		expect(byName.get('@everyone')).toMatchObject({ id: guild.id, position: 0 });
		const bots = byName.get('Massnick')!;
		expect(BigInt(bots.permissions) & PermissionFlagsBits.ManageNicknames).toBe(PermissionFlagsBits.ManageNicknames);
		expect(BigInt(bots.permissions) & PermissionFlagsBits.ChangeNickname).toBe(PermissionFlagsBits.ChangeNickname);
		for (const name of ['Member', 'Level 10', 'Staff']) expect(byName.get(name)!.position).toBeLessThan(bots.position);
		expect(byName.get('Moderator')!.position).toBeGreaterThan(bots.position);
		expect(byName.get('Admin')).toMatchObject({ position: guild.roles.length - 1, permissions: String(PermissionFlagsBits.Administrator) });
		expect(guild.roles.map((role) => role.position)).toEqual(guild.roles.map((_, index) => index));
	});

	it('gives the bots Manage Roles, an unassigned Event role just below them, and MEE6 its managed integration role', () => {
		const guild = generateGuild({ members: 1000, workers: 2, seed: 1 });
		const byName = new Map(guild.roles.map((role) => [role.name, role]));
		const bots = byName.get('Massnick')!;
		expect(BigInt(bots.permissions) & PermissionFlagsBits.ManageRoles).toBe(PermissionFlagsBits.ManageRoles);
		const event = byName.get('Event')!;
		expect(event).toMatchObject({ position: bots.position - 1, managed: false, permissions: '0' });
		expect([...guild.members.indices()].filter((index) => guild.members.roles(index).includes(event.id))).toEqual([]);
		const mee6 = byName.get('MEE6')!;
		expect(mee6.managed).toBe(true);
		expect(mee6.position).toBeLessThan(event.position);
		const holders = [...guild.members.indices()].filter((index) => guild.members.roles(index).includes(mee6.id));
		expect(holders.map((index) => [guild.members.idAt(index).toString(), guild.members.username(index), guild.members.isBot(index)])).toEqual([
			[mee6.tags?.bot_id, 'MEE6', true],
		]);
		expect(guild.roles.filter((role) => role.managed)).toEqual([mee6]);
	});

	it('keeps every id, name, nickname and token a seed gave before the Event and MEE6 roles were added', () => {
		// Golden values from the generator as it was before the two roles: a test that depends on a
		// member of seed 1 or 3 finds the same member.
		const fingerprint = (seed: number, members: number, workers: number) => {
			const guild = generateGuild({ members, workers, seed });
			const store = guild.members;
			const hash = createHash('sha256');
			for (let index = 0; index < store.length; index++) {
				const roles = store.isBot(index) ? '' : store.roles(index).join(',');
				hash.update(
					`${store.idAt(index)}|${store.username(index)}|${store.globalName(index)}|${store.nick(index)}|${store.joinedAt(index)}|${store.isBot(index)}|${roles}\n`,
				);
			}
			const apps = createHash('sha256')
				.update(guild.apps.map((app) => app.id + app.token).join(','))
				.digest('hex')
				.slice(0, 16);
			return {
				members: hash.digest('hex').slice(0, 16),
				apps,
				guild: guild.id,
				channel: guild.channel.id,
				owner: guild.ownerId,
				staff: guild.roleIds.Staff,
				admin: guild.roleIds.Admin,
			};
		};
		expect(fingerprint(1, 1000, 10)).toEqual({
			members: '9ea30f15599a8d31',
			apps: '087574c42905601d',
			guild: '129186290292756164',
			channel: '129186323847187448',
			owner: '289372106574516208',
			staff: '129186302875667489',
			admin: '129186319652882722',
		});
		expect(fingerprint(3, 2500, 2)).toMatchObject({
			members: '4f9089d26bb0abc2',
			apps: 'b09446c0a22cecd7',
			guild: '281552638070228032',
			owner: '611729738152910396',
		});
	});

	it('gives about one member in five a nickname and about one in a hundred Staff; our apps are bots with the bots’ role', () => {
		const guild = generateGuild({ members: 20_000, workers: 3, seed: 9 });
		let nicknamed = 0;
		let staff = 0;
		for (const index of guild.members.indices()) {
			if (guild.members.nick(index) !== null) nicknamed++;
			if (guild.members.roles(index).includes(guild.roleIds.Staff)) staff++;
		}
		expect(nicknamed / guild.members.size).toBeGreaterThan(0.17);
		expect(nicknamed / guild.members.size).toBeLessThan(0.23);
		expect(staff / guild.members.size).toBeGreaterThan(0.005);
		expect(staff / guild.members.size).toBeLessThan(0.015);
		expect(guild.apps).toHaveLength(4);
		for (const app of guild.apps) {
			expect(guild.members.isBot(app.memberIndex)).toBe(true);
			expect(guild.members.idAt(app.memberIndex).toString()).toBe(app.id);
			expect(guild.members.roles(app.memberIndex)).toEqual([guild.roleIds.Massnick]);
			expect(app.token.split('.')).toHaveLength(3);
			expect(Buffer.from(app.token.split('.')[0]!, 'base64').toString()).toBe(app.id);
		}
		expect(new Set(Array.from(guild.members.indices(), (index) => guild.members.username(index))).size).toBe(guild.members.size);
	});
});

describe('MemberStore', () => {
	it('appends newer ids, skips removed members when paging, and keeps rare role sets beside the table', () => {
		const store = new MemberStore(1, Date.UTC(2025, 0, 1), 2);
		for (let i = 1n; i <= 300n; i++) store.push(makeSnowflake(Date.UTC(2024, 0, 1) + Number(i)), [`${i}`]);
		expect(store.size).toBe(300);
		expect(() => store.push(makeSnowflake(Date.UTC(2023, 0, 1)), [])).toThrow(RangeError);
		expect(store.roles(299)).toEqual(['300']);
		store.remove(1);
		expect(store.indexOf(store.idAt(1))).toBe(-1);
		expect(store.page(0n, 3)).toEqual([0, 2, 3]);
		expect(store.size).toBe(299);
		store.setNick(2, 'Custom');
		expect(store.nick(2)).toBe('Custom');
		store.setNick(2, null);
		expect(store.nick(2)).toBeNull();
	});
});

describe('resolveSandboxOptions', () => {
	it('fills defaults and names every bad option at once', () => {
		expect(resolveSandboxOptions({}).members).toBe(1000);
		let error: unknown;
		try {
			resolveSandboxOptions({ members: 5, timeScale: 0, rateLimits: { routes: { memberEdit: { limit: -1 } } } });
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(SandboxOptionError);
		const named = (error as SandboxOptionError).problems.map((problem) => problem.option);
		expect(named.sort()).toEqual(['members', 'rateLimits.routes.memberEdit.limit', 'timeScale']);
	});
});
