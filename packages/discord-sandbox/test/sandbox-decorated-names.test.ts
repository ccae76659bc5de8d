import { Client, GatewayIntentBits, type Guild } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { parseSandboxArgs } from '../src/cli.js';
import { SandboxOptionError } from '../src/SandboxOptionError.js';
import { resolveSandboxOptions } from '../src/SandboxOptions.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { DECORATION_STYLES } from '../src/state/decoratedNames.js';
import { generateGuild } from '../src/state/generateGuild.js';
import type { MemberStore } from '../src/state/MemberStore.js';
import { loginAll } from './support/loginAll.js';

/** Every member as its names are now, and what it was decorated with. */
function snapshot(store: MemberStore) {
	return Array.from(store.indices(), (index) => ({
		id: store.idAt(index).toString(),
		username: store.username(index),
		globalName: store.globalName(index),
		nick: store.nick(index),
		roles: store.roles(index),
		decoration: store.decoration(index),
	}));
}

describe('decoratedNames: generated members with decorated names', () => {
	const decorated = generateGuild({ members: 20_000, workers: 3, seed: 5, decoratedNames: 0.3 });
	const members = snapshot(decorated.members);
	const humans = members.filter((_, n) => !decorated.members.isBot(n));

	it('gives about the share asked for a decorated name, in every style, as the name that shows', () => {
		const withDecoration = humans.filter((member) => member.decoration !== null);
		expect(withDecoration.length / humans.length).toBeGreaterThan(0.28);
		expect(withDecoration.length / humans.length).toBeLessThan(0.32);
		const byStyle = new Map<string, number>();
		for (const { decoration } of withDecoration) byStyle.set(decoration!.style, (byStyle.get(decoration!.style) ?? 0) + 1);
		expect([...byStyle.keys()].sort()).toEqual([...DECORATION_STYLES].sort());
		for (const count of byStyle.values()) expect(count).toBeGreaterThan(300);
		for (const { nick, globalName, decoration } of withDecoration) {
			// The nickname shows when there is one, so a member with one has it decorated.
			if (decoration!.on === 'nick') expect(nick).toBe(decoration!.name);
			else expect([nick, globalName]).toEqual([null, decoration!.name]);
			expect([...decoration!.name].length).toBeLessThanOrEqual(32);
			if (decoration!.plain !== null) expect(decoration!.plain).toMatch(/^[A-Za-z]+( [A-Za-z]+)?$/);
		}
		const names = new Map(withDecoration.map(({ decoration }) => [decoration!.style, decoration!.name]));
		expect(names.get('mathematical-bold')).toMatch(/^[\u{1D400}-\u{1D433} ]+$/u);
		expect(names.get('fullwidth')).toMatch(/^[\uFF21-\uFF5A ]+$/u);
		expect(names.get('hoisting-exclamation')).toMatch(/^!!! /);
		expect(names.get('zalgo')).toMatch(/\p{L}[\u0300-\u036F]{3,}/u);
		expect([names.get('unreadable-stars'), names.get('unreadable-filler')]).toEqual(['★☆★', '\u3164']);
	});

	it('decorates nobody with the default share, and changes nothing but the decorated names', () => {
		const plain = generateGuild({ members: 20_000, workers: 3, seed: 5 });
		const zero = generateGuild({ members: 20_000, workers: 3, seed: 5, decoratedNames: 0 });
		const plainMembers = snapshot(plain.members);
		expect(snapshot(zero.members)).toEqual(plainMembers);
		expect(plainMembers.every((member) => member.decoration === null)).toBe(true);
		expect(zero.apps.map((app) => app.token)).toEqual(plain.apps.map((app) => app.token));
		expect(decorated.apps.map((app) => app.token)).toEqual(plain.apps.map((app) => app.token));
		members.forEach((member, n) => {
			const before = plainMembers[n]!;
			expect([member.id, member.username, member.roles]).toEqual([before.id, before.username, before.roles]);
			if (member.decoration === null) expect([member.globalName, member.nick]).toEqual([before.globalName, before.nick]);
			// A member decorated on its nickname had one already; one decorated on its display name had none.
			else expect(before.nick !== null).toBe(member.decoration.on === 'nick');
		});
	});

	it('is deterministic per seed', () => {
		const again = snapshot(generateGuild({ members: 20_000, workers: 3, seed: 5, decoratedNames: 0.3 }).members);
		expect(again).toEqual(members);
		const other = snapshot(generateGuild({ members: 20_000, workers: 3, seed: 6, decoratedNames: 0.3 }).members);
		const decoratedIn = (list: typeof members) => list.flatMap((member, n) => (member.decoration === null ? [] : [n]));
		expect(decoratedIn(other)).not.toEqual(decoratedIn(members));
	});

	it('is validated like the other options: a share from 0 to 1, named by its flag on the command line', () => {
		expect(resolveSandboxOptions({}).decoratedNames).toBe(0);
		expect(resolveSandboxOptions({ decoratedNames: 1 }).decoratedNames).toBe(1);
		for (const bad of [-0.1, 1.5, Number.NaN]) {
			expect(() => resolveSandboxOptions({ decoratedNames: bad })).toThrow(SandboxOptionError);
		}
		let error: unknown;
		try {
			resolveSandboxOptions({ decoratedNames: 2, members: 5 });
		} catch (thrown) {
			error = thrown;
		}
		expect((error as SandboxOptionError).problems.map((problem) => problem.option).sort()).toEqual(['decoratedNames', 'members']);
		expect(parseSandboxArgs(['--decorated-names', '0.25']).options.decoratedNames).toBe(0.25);
		expect(() => parseSandboxArgs(['--decorated-names', 'many'])).toThrow(SandboxOptionError);
	});
});

describe('decorated names through discord.js and the control API', () => {
	let sandbox: Sandbox;
	let boss: Client;
	let guild: Guild;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 1000, workers: 1, seed: 3, decoratedNames: 0.5 });
		boss = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl } });
		await loginAll([[boss, sandbox.bossToken]]);
		guild = boss.guilds.cache.get(sandbox.guildId)!;
	});
	afterAll(async () => {
		await boss?.destroy();
		await sandbox?.close();
	});

	/** A decorated member below the bots' role, not the owner: one the boss may rename. */
	const ordinaryDecorated = (on: 'nick' | 'globalName'): string => {
		const { members, guild: generated } = sandbox.state;
		const above = new Set([generated.roleIds.Moderator, generated.roleIds.Admin]);
		for (const index of members.indices()) {
			const id = members.idAt(index).toString();
			if (members.decoration(index)?.on === on && !members.isBot(index) && id !== sandbox.ownerId && !members.roles(index).some((role) => above.has(role)))
				return id;
		}
		throw new Error(`no ordinary member decorated on its ${on}`);
	};

	it('serves every decorated name to discord.js, over the gateway and over REST', async () => {
		const fetched = await guild.members.fetch();
		const { members } = sandbox.state;
		let seen = 0;
		for (const index of members.indices()) {
			const decoration = members.decoration(index);
			if (decoration === null) continue;
			seen++;
			const member = fetched.get(members.idAt(index).toString())!;
			expect(member.displayName).toBe(decoration.name);
			if (decoration.on === 'nick') expect(member.nickname).toBe(decoration.name);
			else expect([member.nickname, member.user.globalName]).toEqual([null, decoration.name]);
		}
		expect(seen).toBeGreaterThan(400);
		const one = ordinaryDecorated('globalName');
		const overRest = await guild.members.fetch({ user: one, force: true, cache: false });
		expect(overRest.user.globalName).toBe(members.decoration(members.indexOf(BigInt(one)))!.name);
	});

	it('lists each decorated member’s decoration in the control API, and nobody else’s', async () => {
		const listed = await new SandboxControl(sandbox.controlUrl).members(sandbox.guildId);
		const { members } = sandbox.state;
		expect(listed.filter((member) => member.decoration !== undefined).length).toBe(
			Array.from(members.indices()).filter((index) => members.decoration(index) !== null).length,
		);
		for (const member of listed) {
			if (member.decoration === undefined) continue;
			expect(member.decoration.on === 'nick' ? member.nick : member.globalName).toBe(member.decoration.name);
		}
	});

	it('a member renamed keeps the new nickname; the decoration stays on the display name and in the record', async () => {
		const byName = ordinaryDecorated('globalName');
		const decoration = sandbox.state.members.decoration(sandbox.state.members.indexOf(BigInt(byName)))!;
		await (await guild.members.fetch(byName)).setNickname('Cleaned');
		const renamed = await guild.members.fetch({ user: byName, force: true, cache: false });
		expect([renamed.nickname, renamed.user.globalName, renamed.displayName]).toEqual(['Cleaned', decoration.name, 'Cleaned']);

		const byNick = ordinaryDecorated('nick');
		const index = sandbox.state.members.indexOf(BigInt(byNick));
		await (await guild.members.fetch(byNick)).setNickname(null);
		const cleared = await guild.members.fetch({ user: byNick, force: true, cache: false });
		expect(cleared.nickname).toBeNull();
		expect(cleared.displayName).not.toBe(sandbox.state.members.decoration(index)!.name);
		expect(sandbox.state.members.decoration(index)?.on).toBe('nick');
	});
});
