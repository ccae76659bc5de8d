import { REST } from '@discordjs/rest';
import {
	AuditLogEvent,
	GatewayDispatchEvents,
	RESTJSONErrorCodes,
	Routes,
	type APIAuditLog,
	type APIBan,
	type GatewayGuildBanAddDispatchData,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import { renamableMembers } from '../src/renamableMembers.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Bans, bulk bans and kicks through the real discord.js (GuildBanManager, GuildMemberManager) and
 * @discordjs/rest, with Discord's rules: Ban Members (and Manage Guild for a bulk ban), Kick
 * Members, the hierarchy, users who left, the non-member ban limit, and GUILD_BAN_ADD and
 * GUILD_BAN_REMOVE to the Guild Moderation intent only.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let rest: REST;
let moderation: Client;
let plain: Client;
/** Dispatch names each client received, in order, with the user they were about. */
const received = { moderation: [] as Array<{ t: string; user: string }>, plain: [] as Array<{ t: string; user: string }> };
/** Members these tests may act on, handed out one group at a time so tests don't share targets. */
let targets: string[] = [];
const take = (count: number): string[] => targets.splice(0, count);

beforeAll(async () => {
	// The ban limit's window is a day, 29 minutes here: the file's bans all fall in it however slow
	// the machine (a minute, 1.2 s here, let it pass on a loaded one before its last test).
	sandbox = await startSandbox({ members: 400, workers: 1, seed: 31, timeScale: 50, rateLimits: { nonMemberBans: { limit: 3, windowMs: 86_400_000 } } });
	control = new SandboxControl(sandbox.controlUrl);
	const massnick = sandbox.state.guild.roleIds.Massnick;
	await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'KickMembers', 'ManageGuild'] });
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	moderation = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildModeration], rest: { api: sandbox.apiUrl, retries: 0 } });
	plain = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl, retries: 0 } });
	for (const [name, client] of [
		['moderation', moderation],
		['plain', plain],
	] as const) {
		client.on(Events.Raw, (packet: { t: string; d: GatewayGuildBanAddDispatchData }) => {
			if (packet.t?.startsWith('GUILD_BAN') || packet.t === GatewayDispatchEvents.GuildMemberRemove)
				received[name].push({ t: packet.t, user: packet.d.user.id });
		});
	}
	await loginAll([
		[moderation, sandbox.bossToken],
		[plain, sandbox.workerTokens[0]!],
	]);
	targets = renamableMembers(sandbox);
});
afterAll(async () => {
	await Promise.all([moderation?.destroy(), plain?.destroy()]);
	await sandbox?.close();
});

const guild = (): Guild => moderation.guilds.cache.get(sandbox.guildId)!;
const isMember = (userId: string): boolean => sandbox.state.memberIndex(sandbox.guildId, userId) !== -1;
const moderator = (): string => {
	const { state } = sandbox;
	return state.members.idAt([...state.members.indices()].find((index) => state.members.roles(index).includes(state.guild.roleIds.Moderator))!).toString();
};
async function entries(type: AuditLogEvent, limit = 5): Promise<APIAuditLog['audit_log_entries']> {
	const query = new URLSearchParams({ action_type: String(type), limit: String(limit) });
	return ((await rest.get(Routes.guildAuditLog(sandbox.guildId), { query })) as APIAuditLog).audit_log_entries;
}
/** Waits until the plain client has seen everything sent before now: a role update every session gets. */
async function plainCaughtUp(): Promise<void> {
	let seen = false;
	const listener = (packet: { t: string }): void => {
		if (packet.t === GatewayDispatchEvents.GuildRoleUpdate) seen = true;
	};
	plain.on(Events.Raw, listener);
	try {
		const role = sandbox.state.rolesById.get(sandbox.state.guild.roleIds.Event)!;
		await control.editRole(sandbox.guildId, role.id, { permissions: role.permissions });
		await waitUntil(() => seen, { what: 'GUILD_ROLE_UPDATE at the plain client' });
	} finally {
		plain.off(Events.Raw, listener);
	}
}

describe('PUT, GET and DELETE /guilds/{id}/bans/{user}', () => {
	it('bans a member with guild.bans.create: gone from the guild, the ban readable with its reason, GUILD_BAN_ADD to the moderation intent only, a MEMBER_BAN_ADD entry', async () => {
		const [target] = take(1);
		await guild().bans.create(target!, { deleteMessageSeconds: 3600, reason: 'raid: free nitro' });
		expect(isMember(target!)).toBe(false);
		const ban = await guild().bans.fetch({ user: target!, force: true });
		expect([ban.user.id, ban.reason]).toEqual([target, 'raid: free nitro']);
		await waitUntil(() => received.moderation.some((event) => event.t === GatewayDispatchEvents.GuildBanAdd && event.user === target), {
			what: 'GUILD_BAN_ADD at the moderation client',
		});
		await plainCaughtUp();
		expect(received.plain.filter((event) => event.t.startsWith('GUILD_BAN'))).toEqual([]);
		expect((await entries(AuditLogEvent.MemberBanAdd, 1))[0]).toMatchObject({ user_id: sandbox.bossId, target_id: target, reason: 'raid: free nitro' });
	});

	it('bans a user who already left (no hierarchy to check), and answers 204 again for someone banned already, with no second entry', async () => {
		const [target] = take(1);
		await control.removeMember(sandbox.guildId, target!);
		await rest.put(Routes.guildBan(sandbox.guildId, target!), { body: {} });
		expect(sandbox.state.bans.has(BigInt(target!))).toBe(true);
		const logged = sandbox.state.auditLog.size;
		await rest.put(Routes.guildBan(sandbox.guildId, target!), { body: {} });
		expect(sandbox.state.auditLog.size).toBe(logged);
	});

	it('unbans with guild.bans.remove: GUILD_BAN_REMOVE, a MEMBER_BAN_REMOVE entry, then 404/10026 Unknown Ban to read or lift it again', async () => {
		const [target] = take(1);
		await guild().bans.create(target!);
		await guild().bans.remove(target!, 'undo job 7');
		await waitUntil(() => received.moderation.some((event) => event.t === GatewayDispatchEvents.GuildBanRemove && event.user === target), {
			what: 'GUILD_BAN_REMOVE',
		});
		expect((await entries(AuditLogEvent.MemberBanRemove, 1))[0]).toMatchObject({ target_id: target, reason: 'undo job 7' });
		for (const request of [rest.get(Routes.guildBan(sandbox.guildId, target!)), rest.delete(Routes.guildBan(sandbox.guildId, target!))]) {
			const error = await apiFailure(request);
			expect([error.status, error.code]).toEqual([404, RESTJSONErrorCodes.UnknownBan]);
		}
	});

	it('refuses the owner and a member at or above the bot’s highest role with 403/50013, and an unknown user with 404/10013', async () => {
		for (const userId of [sandbox.ownerId, moderator(), sandbox.bossId]) {
			const error = await apiFailure(guild().bans.create(userId));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
			expect(isMember(userId)).toBe(true);
		}
		const unknown = await apiFailure(rest.put(Routes.guildBan(sandbox.guildId, '1234567890123456789'), { body: {} }));
		expect([unknown.status, unknown.code]).toEqual([404, RESTJSONErrorCodes.UnknownUser]);
	});

	it('refuses delete_message_seconds past a week with 400/50035 on the field', async () => {
		const [target] = take(1);
		const error = await apiFailure(rest.put(Routes.guildBan(sandbox.guildId, target!), { body: { delete_message_seconds: 604_801 } }));
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.rawError).toMatchObject({ errors: { delete_message_seconds: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } });
		expect(isMember(target!)).toBe(true);
	});

	it('refuses a bot without Ban Members with 403/50013 on every ban route', async () => {
		const worker = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.workerTokens[0]!);
		const massnick = sandbox.state.guild.roleIds.Massnick;
		await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog'] });
		try {
			const [target] = targets;
			for (const request of [
				worker.put(Routes.guildBan(sandbox.guildId, target!), { body: {} }),
				worker.get(Routes.guildBans(sandbox.guildId)),
				worker.delete(Routes.guildBan(sandbox.guildId, target!)),
			]) {
				expect((await apiFailure(request)).code).toBe(RESTJSONErrorCodes.MissingPermissions);
			}
		} finally {
			await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'KickMembers', 'ManageGuild'] });
		}
	});
});

describe('GET /guilds/{id}/bans', () => {
	it('lists bans sorted by user id, paged by after and before with limit, and fetches them all through discord.js', async () => {
		const ids = take(6);
		for (const id of ids) await rest.put(Routes.guildBan(sandbox.guildId, id), { body: {} });
		const all = (await rest.get(Routes.guildBans(sandbox.guildId))) as APIBan[];
		const listed = all.map((ban) => ban.user.id);
		expect(listed).toEqual([...listed].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)));
		expect(listed).toEqual(expect.arrayContaining(ids));
		const page = (query: Record<string, string>) => rest.get(Routes.guildBans(sandbox.guildId), { query: new URLSearchParams(query) }) as Promise<APIBan[]>;
		expect((await page({ limit: '2', after: listed[0]! })).map((ban) => ban.user.id)).toEqual(listed.slice(1, 3));
		expect((await page({ limit: '2', before: listed.at(-1)! })).map((ban) => ban.user.id)).toEqual(listed.slice(-3, -1));
		const fetched = await guild().bans.fetch({ limit: 3, cache: false });
		expect([...fetched.keys()]).toEqual(listed.slice(0, 3));
		const tooMany = await apiFailure(page({ limit: '1001' }));
		expect(tooMany.code).toBe(RESTJSONErrorCodes.InvalidFormBodyOrContentType);
	});
});

describe('POST /guilds/{id}/bulk-ban', () => {
	it('bans up to 200 users with guild.bans.bulkCreate; banned, left and out-of-reach users fail; the bot itself is in neither list', async () => {
		const [member, leaver, banned] = take(3);
		await control.removeMember(sandbox.guildId, leaver!);
		await rest.put(Routes.guildBan(sandbox.guildId, banned!), { body: {} });
		const users = [member!, leaver!, banned!, sandbox.ownerId, moderator(), sandbox.bossId];
		const result = await guild().bans.bulkCreate(users, { reason: 'raid cleanup' });
		expect([...result.bannedUsers].sort()).toEqual([member!, leaver!].sort());
		expect([...result.failedUsers].sort()).toEqual([banned!, sandbox.ownerId, moderator()].sort());
		expect(isMember(member!)).toBe(false);
		expect((await entries(AuditLogEvent.MemberBanAdd, 2)).map((entry) => [entry.target_id, entry.reason])).toEqual(
			expect.arrayContaining([
				[member, 'raid cleanup'],
				[leaver, 'raid cleanup'],
			]),
		);
	});

	it('fails the whole call with 400/500000 when nobody could be banned, and refuses more than 200 ids with 400/50035', async () => {
		const none = await apiFailure(rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: [sandbox.ownerId, moderator()] } }));
		expect([none.status, none.code]).toEqual([400, RESTJSONErrorCodes.FailedToBanUsers]);
		const ids = Array.from({ length: 201 }, (_, n) => (10n ** 18n + BigInt(n)).toString());
		const tooMany = await apiFailure(rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: ids } }));
		expect([tooMany.status, tooMany.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(tooMany.rawError).toMatchObject({ errors: { user_ids: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } });
	});

	it('checks delete_message_seconds as a ban does (400/50035 past a week) and ignores delete_message_days, which it does not take', async () => {
		const [target] = take(1);
		const error = await apiFailure(rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: [target!], delete_message_seconds: 604_801 } }));
		expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
		expect(error.rawError).toMatchObject({ errors: { delete_message_seconds: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } });
		expect(isMember(target!)).toBe(true);
		const result = await rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: [target!], delete_message_days: 99 } });
		expect(result).toEqual({ banned_users: [target], failed_users: [] });
	});

	it('needs Manage Guild as well as Ban Members: 403/50013 with Ban Members alone', async () => {
		const massnick = sandbox.state.guild.roleIds.Massnick;
		await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers'] });
		try {
			const [target] = targets;
			const error = await apiFailure(rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: [target!] } }));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
			expect(isMember(target!)).toBe(true);
		} finally {
			await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'KickMembers', 'ManageGuild'] });
		}
	});
});

describe('the non-member ban limit (3 here)', () => {
	it('counts bans of users who left, across tokens; past it a ban answers 400/30035 and a bulk ban of only such users too, while members can still be banned', async () => {
		// Two non-members were banned above (one alone, one in the bulk ban); the limit is 3.
		const leavers = take(3);
		for (const id of leavers) await control.removeMember(sandbox.guildId, id);
		await rest.put(Routes.guildBan(sandbox.guildId, leavers[0]!), { body: {} });
		const single = await apiFailure(rest.put(Routes.guildBan(sandbox.guildId, leavers[1]!), { body: {} }));
		expect([single.status, single.code]).toEqual([400, RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded]);
		const bulk = await apiFailure(rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: leavers.slice(1) } }));
		expect(bulk.code).toBe(RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded);
		const [member] = take(1);
		const mixed = (await rest.post(Routes.guildBulkBan(sandbox.guildId), { body: { user_ids: [member!, leavers[2]!] } })) as {
			banned_users: string[];
			failed_users: string[];
		};
		expect(mixed).toEqual({ banned_users: [member], failed_users: [leavers[2]] });
	});
});

describe('DELETE /guilds/{id}/members/{user} (kick)', () => {
	it('kicks with guild.members.kick: 204, GUILD_MEMBER_REMOVE, a MEMBER_KICK entry with the reason, then 404/10007', async () => {
		const [target] = take(1);
		await guild().members.kick(target!, 'raid: kicked');
		expect(isMember(target!)).toBe(false);
		expect(sandbox.state.bans.has(BigInt(target!))).toBe(false);
		expect((await entries(AuditLogEvent.MemberKick, 1))[0]).toMatchObject({ user_id: sandbox.bossId, target_id: target, reason: 'raid: kicked' });
		const again = await apiFailure(rest.delete(Routes.guildMember(sandbox.guildId, target!)));
		expect([again.status, again.code]).toEqual([404, RESTJSONErrorCodes.UnknownMember]);
	});

	it('refuses the owner, a moderator above the bot and a bot without Kick Members with 403/50013', async () => {
		for (const userId of [sandbox.ownerId, moderator()]) {
			expect((await apiFailure(guild().members.kick(userId))).code).toBe(RESTJSONErrorCodes.MissingPermissions);
		}
		const massnick = sandbox.state.guild.roleIds.Massnick;
		await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames'] });
		try {
			const [target] = targets;
			expect((await apiFailure(rest.delete(Routes.guildMember(sandbox.guildId, target!)))).code).toBe(RESTJSONErrorCodes.MissingPermissions);
			expect(isMember(target!)).toBe(true);
		} finally {
			await control.editRole(sandbox.guildId, massnick, { permissions: ['ManageNicknames', 'ViewAuditLog', 'BanMembers', 'KickMembers', 'ManageGuild'] });
		}
	});
});
