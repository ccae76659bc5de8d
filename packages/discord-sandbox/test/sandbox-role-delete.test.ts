import {
	AuditLogEvent,
	GatewayDispatchEvents,
	PermissionFlagsBits,
	RESTJSONErrorCodes,
	Routes,
	type APIAuditLog,
	type APIGuildMember,
	type RESTGetAPIGuildRoleMemberCountsResult,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild, type Role } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import type { SandboxDispatch } from '../src/gateway/GatewayHost.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { MemberStore } from '../src/state/MemberStore.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Roles an admin makes mentionable or deletes in Server Settings (the control API), and Delete
 * Guild Role for bots, against the real discord.js: the role leaves the guild and every member,
 * with GUILD_ROLE_DELETE alone (no GUILD_MEMBER_UPDATE per holder).
 * https://discord.com/developers/docs/resources/guild#delete-guild-role
 */
let sandbox: Sandbox;
let control: SandboxControl;
let client: Client;
let guild: Guild;
/** Every event the sandbox emitted. */
const events: SandboxDispatch[] = [];
/** Every dispatch the client received, by name. */
const received: string[] = [];

beforeAll(async () => {
	const generous = { limit: 1000 };
	sandbox = await startSandbox({ members: 200, workers: 1, seed: 41, rateLimits: { global: generous, routes: { memberRole: generous, default: generous } } });
	sandbox.state.events.subscribe((event) => events.push(event));
	control = new SandboxControl(sandbox.controlUrl);
	client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl, retries: 0 } });
	client.on(Events.Raw, (packet: { t: string | null }) => {
		if (packet.t) received.push(packet.t);
	});
	await loginAll([[client, sandbox.bossToken]]);
	guild = client.guilds.cache.get(sandbox.guildId)!;
});
afterAll(async () => {
	await client?.destroy();
	await sandbox?.close();
});

/** Members who are neither the owner nor a bot. */
async function ordinaryMembers(count: number): Promise<string[]> {
	return (await control.members(sandbox.guildId))
		.filter((member) => !member.bot && member.id !== sandbox.ownerId)
		.slice(0, count)
		.map((member) => member.id);
}

/** Resolves with the role once discord.js emits `event` for a role that `matches`. */
function roleEvent(event: Events.GuildRoleCreate | Events.GuildRoleUpdate | Events.GuildRoleDelete, matches: (role: Role) => boolean): Promise<Role> {
	return new Promise((resolve) => {
		const listener = (...args: Role[]): void => {
			const role = args.at(-1)!;
			if (!matches(role)) return;
			client.off(event, listener);
			resolve(role);
		};
		client.on(event, listener);
	});
}

describe('mentionable roles', () => {
	it('a role created mentionable, then made plain, reaches discord.js both times', async () => {
		const created = roleEvent(Events.GuildRoleCreate, (role) => role.name === 'Announcements');
		const role = await control.createRole(sandbox.guildId, { name: 'Announcements', mentionable: true });
		expect(role.mentionable).toBe(true);
		expect((await created).mentionable).toBe(true);
		const updated = roleEvent(Events.GuildRoleUpdate, (changed) => changed.id === role.id && !changed.mentionable);
		expect((await control.editRole(sandbox.guildId, role.id, { mentionable: false })).mentionable).toBe(false);
		await updated;
		expect((await control.state()).roles.find((known) => known.id === role.id)).toMatchObject({ mentionable: false });
		// Created without the field, a role is not mentionable, as on Discord.
		expect((await control.createRole(sandbox.guildId, { name: 'Quiet' })).mentionable).toBe(false);
		const refused = await fetch(`${sandbox.controlUrl}/guilds/${sandbox.guildId}/roles/${role.id}`, {
			method: 'PATCH',
			body: JSON.stringify({ mentionable: 'yes' }),
		});
		expect(refused.status).toBe(400);
	});
});

describe('deleting a role in Server Settings', () => {
	it('takes it from the guild and every holder, sends GUILD_ROLE_DELETE and no GUILD_MEMBER_UPDATE, and discord.js drops it', async () => {
		const temp = await control.createRole(sandbox.guildId, { name: 'Temp' });
		const holders = await ordinaryMembers(3);
		for (const id of holders) await control.addMemberRole(sandbox.guildId, id, temp.id);
		const cached = await guild.members.fetch(holders[0]!);
		await waitUntil(() => cached.roles.cache.has(temp.id), { what: 'the first holder to have Temp in discord.js' });
		const eventsBefore = events.length;
		const receivedBefore = received.length;

		const deleted = roleEvent(Events.GuildRoleDelete, (role) => role.id === temp.id);
		expect(await control.deleteRole(sandbox.guildId, temp.id)).toEqual({ deleted: temp.id });
		await deleted;

		expect(events.slice(eventsBefore).map((event) => [event.t, event.d])).toEqual([
			[GatewayDispatchEvents.GuildRoleDelete, { guild_id: sandbox.guildId, role_id: temp.id }],
		]);
		expect(received.slice(receivedBefore)).toEqual([GatewayDispatchEvents.GuildRoleDelete]);
		expect(guild.roles.cache.has(temp.id)).toBe(false);
		expect(cached.roles.cache.has(temp.id)).toBe(false);
		const members = await control.members(sandbox.guildId);
		expect(members.filter((member) => member.roles.includes(temp.id))).toEqual([]);
		const fetched = (await client.rest.get(Routes.guildMember(sandbox.guildId, holders[1]!))) as APIGuildMember;
		expect(fetched.roles).not.toContain(temp.id);
		expect(fetched.roles).toContain(sandbox.state.guild.roleIds.Member);
		const counts = (await client.rest.get(Routes.guildRoleMemberCounts(sandbox.guildId))) as RESTGetAPIGuildRoleMemberCountsResult;
		expect(counts[temp.id]).toBeUndefined();
		expect((await control.state()).roles.map((role) => role.id)).not.toContain(temp.id);
		const log = await control.auditLog(sandbox.guildId, 1);
		expect(log.audit_log_entries[0]).toMatchObject({ action_type: AuditLogEvent.RoleDelete, user_id: sandbox.ownerId, target_id: temp.id });
	});

	it('refuses @everyone and managed roles (400) and unknown roles (404)', async () => {
		const { roleIds } = sandbox.state.guild;
		for (const [roleId, status] of [
			[sandbox.guildId, 400],
			[roleIds.MEE6, 400],
			['1', 404],
		] as const) {
			const response = await fetch(`${sandbox.controlUrl}/guilds/${sandbox.guildId}/roles/${roleId}`, { method: 'DELETE' });
			expect(response.status, roleId).toBe(status);
		}
		expect(sandbox.state.rolesById.has(roleIds.MEE6)).toBe(true);
	});
});

describe('Delete Guild Role for bots', () => {
	it('deletes a role below the bot’s highest with its reason: 204, GUILD_ROLE_DELETE, a ROLE_DELETE audit entry', async () => {
		const role = await control.createRole(sandbox.guildId, { name: 'Old event', permissions: ['SendMessages'] });
		const [holder] = await ordinaryMembers(1);
		await control.addMemberRole(sandbox.guildId, holder!, role.id);
		const eventsBefore = events.length;
		await guild.roles.delete(role.id, 'event is over');
		expect(events.slice(eventsBefore).map((event) => event.t)).toEqual([GatewayDispatchEvents.GuildRoleDelete]);
		await waitUntil(() => received.includes(GatewayDispatchEvents.GuildRoleDelete) && !guild.roles.cache.has(role.id), {
			what: 'GUILD_ROLE_DELETE to reach discord.js',
		});
		expect(sandbox.state.members.roles(sandbox.state.memberIndex(sandbox.guildId, holder!))).not.toContain(role.id);
		const log = (await client.rest.get(Routes.guildAuditLog(sandbox.guildId), {
			query: new URLSearchParams({ action_type: String(AuditLogEvent.RoleDelete), limit: '1' }),
		})) as APIAuditLog;
		expect(log.audit_log_entries[0]).toMatchObject({
			user_id: sandbox.bossId,
			target_id: role.id,
			reason: 'event is over',
			changes: expect.arrayContaining([
				{ key: 'name', old_value: 'Old event' },
				{ key: 'permissions', old_value: String(PermissionFlagsBits.SendMessages) },
			]),
		});
		expect((await apiFailure(guild.roles.delete(role.id))).code).toBe(RESTJSONErrorCodes.UnknownRole);
	});

	it('answers as Discord does: 50013 above the bot or without Manage Roles, 50028 for @everyone and managed roles', async () => {
		const { roleIds } = sandbox.state.guild;
		const remove = (roleId: string) => client.rest.delete(Routes.guildRole(sandbox.guildId, roleId));
		expect((await apiFailure(remove(roleIds.Moderator))).code).toBe(RESTJSONErrorCodes.MissingPermissions);
		for (const roleId of [sandbox.guildId, roleIds.MEE6]) {
			const error = await apiFailure(remove(roleId));
			expect([error.status, error.code]).toEqual([400, RESTJSONErrorCodes.InvalidRole]);
		}
		const massnick = sandbox.state.rolesById.get(roleIds.Massnick)!;
		const granted = massnick.permissions;
		await control.editRole(sandbox.guildId, massnick.id, { permissions: String(BigInt(granted) & ~PermissionFlagsBits.ManageRoles) });
		try {
			expect((await apiFailure(remove(roleIds.Event))).code).toBe(RESTJSONErrorCodes.MissingPermissions);
		} finally {
			await control.editRole(sandbox.guildId, massnick.id, { permissions: granted });
		}
		expect(sandbox.state.rolesById.has(roleIds.Event)).toBe(true);
	});
});

describe('the member store, which must hold a million members', () => {
	it('takes a role from shared role sets, sets that fold into another, and members beyond the shared table', () => {
		const store = new MemberStore(1, Date.now(), 16);
		const sets: string[][] = [['gone'], ['gone', 'kept'], ['kept'], ['gone', 'other'], ['other', 'kept']];
		// 300 more distinct sets overflow the 255-set table into the side map.
		for (let n = 0; n < 300; n++) sets.push(['gone', `r${n}`]);
		sets.forEach((roles, index) => store.push(BigInt(1000 + index), roles));
		const before = store.countByRole();

		store.removeRoleEverywhere('gone');

		sets.forEach((roles, index) => expect([...store.roles(index)].sort(), `member ${index}`).toEqual(roles.filter((role) => role !== 'gone').sort()));
		const after = store.countByRole();
		expect(after.has('gone')).toBe(false);
		before.delete('gone');
		expect(after).toEqual(before);
	});

	it('deletes the role most of a million members hold in one pass, without an allocation per member', async () => {
		const large = await startSandbox({ members: 1_000_000, workers: 1, seed: 42 });
		try {
			const member = large.state.guild.roleIds.Member;
			const holders = large.state.members.countByRole().get(member)!;
			expect(holders).toBeGreaterThan(500_000);
			const heapBefore = process.memoryUsage().heapUsed;
			const response = await fetch(`${large.controlUrl}/guilds/${large.guildId}/roles/${member}`, { method: 'DELETE' });
			expect(response.status).toBe(200);
			// An array per member would be tens of megabytes: the store rewrites a few shared sets instead.
			expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(16 * 1024 * 1024);
			expect(large.state.members.countByRole().has(member)).toBe(false);
			for (const index of [0, 1, 500_000, large.state.members.length - 1]) expect(large.state.members.roles(index)).not.toContain(member);
		} finally {
			await large.close();
		}
	});
});
