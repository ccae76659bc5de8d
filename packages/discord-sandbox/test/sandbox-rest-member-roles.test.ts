import { REST } from '@discordjs/rest';
import {
	AuditLogEvent,
	GatewayDispatchEvents,
	PermissionFlagsBits,
	RESTJSONErrorCodes,
	Routes,
	type APIAuditLog,
	type APIRole,
	type GatewayGuildMemberUpdateDispatchData,
} from 'discord-api-types/v10';
import { Client, Events, GatewayIntentBits, type Guild } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SandboxControl } from '../src/client/SandboxControl.js';
import type { SandboxDispatch } from '../src/gateway/GatewayHost.js';
import { resolveSandboxOptions } from '../src/SandboxOptions.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';
import { loginAll } from './support/loginAll.js';
import { renamableMembers } from '../src/renamableMembers.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * Add and Remove Guild Member Role through the real discord.js, with Discord's rules: Manage
 * Roles, a role below the bot's highest, never a managed role or `@everyone`; the member's own
 * rank does not matter. See docs/role-routes.md for the sources.
 */
let sandbox: Sandbox;
let control: SandboxControl;
let rest: REST;
let bossClient: Client;
let workerClient: Client;
/** GUILD_MEMBER_UPDATEs each client received, in order. */
const received = { boss: [] as GatewayGuildMemberUpdateDispatchData[], worker: [] as GatewayGuildMemberUpdateDispatchData[] };
/** Every event the sandbox emitted. */
const events: SandboxDispatch[] = [];

beforeAll(async () => {
	// Windows of 10 s become 0.2 s: the real limits apply, without the wait.
	sandbox = await startSandbox({ members: 300, workers: 2, seed: 21, timeScale: 50 });
	sandbox.state.events.subscribe((event) => events.push(event));
	control = new SandboxControl(sandbox.controlUrl);
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
	// The boss's application has the Server Members intent, the worker's has not.
	bossClient = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers], rest: { api: sandbox.apiUrl, retries: 0 } });
	workerClient = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: sandbox.apiUrl, retries: 0 } });
	for (const [name, client] of [
		['boss', bossClient],
		['worker', workerClient],
	] as const) {
		client.on(Events.Raw, (packet: { t: string; d: GatewayGuildMemberUpdateDispatchData }) => {
			if (packet.t === GatewayDispatchEvents.GuildMemberUpdate) received[name].push(packet.d);
		});
	}
	await loginAll([
		[bossClient, sandbox.bossToken],
		[workerClient, sandbox.workerTokens[0]!],
	]);
});
afterAll(async () => {
	await Promise.all([bossClient?.destroy(), workerClient?.destroy()]);
	await sandbox?.close();
});

const guild = (): Guild => bossClient.guilds.cache.get(sandbox.guildId)!;
const role = (name: string): APIRole => sandbox.state.guild.roles.find((candidate) => candidate.name === name)!;
const rolesOf = async (userId: string): Promise<readonly string[]> => (await control.members(sandbox.guildId)).find((member) => member.id === userId)!.roles;
const memberUpdates = (): number => events.filter((event) => event.t === GatewayDispatchEvents.GuildMemberUpdate).length;

async function roleEntries(limit = 10): Promise<APIAuditLog['audit_log_entries']> {
	const query = new URLSearchParams({ action_type: String(AuditLogEvent.MemberRoleUpdate), limit: String(limit) });
	return ((await rest.get(Routes.guildAuditLog(sandbox.guildId), { query })) as APIAuditLog).audit_log_entries;
}

/** Waits until the worker has seen a gateway event sent after everything before it: a role update every session gets. */
async function workerCaughtUp(): Promise<void> {
	let seen = false;
	const listener = (packet: { t: string }): void => {
		if (packet.t === GatewayDispatchEvents.GuildRoleUpdate) seen = true;
	};
	workerClient.on(Events.Raw, listener);
	try {
		const event = role('Event');
		await control.editRole(sandbox.guildId, event.id, { permissions: event.permissions });
		await waitUntil(() => seen, { what: 'GUILD_ROLE_UPDATE at the worker' });
	} finally {
		workerClient.off(Events.Raw, listener);
	}
}

describe('the generated guild', () => {
	it('has an unassigned Event role just below the bots’ role, and MEE6’s managed role, which MEE6 holds', async () => {
		const massnick = role('Massnick');
		expect(role('Event').position).toBe(massnick.position - 1);
		expect((await control.members(sandbox.guildId)).filter((member) => member.roles.includes(role('Event').id))).toEqual([]);
		const mee6 = role('MEE6');
		expect(mee6).toMatchObject({ managed: true, tags: { bot_id: expect.any(String) } });
		expect(mee6.position).toBeLessThan(massnick.position);
		expect(await rolesOf(mee6.tags!.bot_id!)).toContain(mee6.id);
		expect(BigInt(massnick.permissions) & PermissionFlagsBits.ManageRoles).toBe(PermissionFlagsBits.ManageRoles);
	});
});

describe('PUT and DELETE /guilds/{id}/members/{user}/roles/{role}', () => {
	it('gives a role: 204, the member holds it, GUILD_MEMBER_UPDATE to the members intent only, and a $add audit entry with the reason', async () => {
		const [target] = renamableMembers(sandbox, 1);
		const event = role('Event');
		const from = received.boss.length;
		const workerFrom = received.worker.length;
		await guild().members.addRole({ user: target!, role: event.id, reason: 'massrole job 3: 🎉 for café' });

		expect(await rolesOf(target!)).toContain(event.id);
		await waitUntil(() => received.boss.slice(from).some((update) => update.user.id === target), { what: 'GUILD_MEMBER_UPDATE at the boss' });
		expect(received.boss.slice(from).find((update) => update.user.id === target)!.roles).toContain(event.id);
		await waitUntil(() => guild().members.cache.get(target!)?.roles.cache.has(event.id) === true, { what: 'discord.js to cache the new role' });
		await workerCaughtUp();
		expect(received.worker.slice(workerFrom)).toEqual([]);

		const [entry] = await roleEntries(1);
		expect(entry).toMatchObject({
			action_type: AuditLogEvent.MemberRoleUpdate,
			user_id: sandbox.bossId,
			target_id: target,
			reason: 'massrole job 3: 🎉 for café',
			changes: [{ key: '$add', new_value: [{ id: event.id, name: 'Event' }] }],
		});
		const viaControl = await control.auditLog(sandbox.guildId, 1);
		expect(viaControl.audit_log_entries[0]).toMatchObject({ action_type: AuditLogEvent.MemberRoleUpdate, target_id: target, changes: [{ key: '$add' }] });
	});

	it('takes it back with member.roles.remove: 204, GUILD_MEMBER_UPDATE and a $remove entry', async () => {
		const [target] = renamableMembers(sandbox, 1);
		const event = role('Event');
		const member = await guild().members.fetch(target!);
		expect(member.roles.cache.has(event.id)).toBe(true);
		const updates = memberUpdates();
		await member.roles.remove(event.id, 'undo job 3');
		expect(await rolesOf(target!)).not.toContain(event.id);
		expect(memberUpdates()).toBe(updates + 1);
		expect((await roleEntries(1))[0]).toMatchObject({
			target_id: target,
			reason: 'undo job 3',
			changes: [{ key: '$remove', new_value: [{ id: event.id, name: 'Event' }] }],
		});
	});

	it('giving a role the member has, or taking one they lack, answers 204 and changes nothing: no event, no audit entry', async () => {
		const [, target] = renamableMembers(sandbox, 2);
		const event = role('Event');
		await rest.put(Routes.guildMemberRole(sandbox.guildId, target!, event.id));
		const entries = sandbox.state.auditLog.size;
		const updates = memberUpdates();
		const before = await rolesOf(target!);
		await rest.put(Routes.guildMemberRole(sandbox.guildId, target!, event.id));
		expect(await rolesOf(target!)).toEqual(before);
		await rest.delete(Routes.guildMemberRole(sandbox.guildId, target!, event.id));
		await rest.delete(Routes.guildMemberRole(sandbox.guildId, target!, event.id));
		expect(await rolesOf(target!)).not.toContain(event.id);
		expect(sandbox.state.auditLog.size).toBe(entries + 1);
		expect(memberUpdates()).toBe(updates + 1);
	});

	it('gives a role below the bot’s to members ranked above the bot, the owner included: the member’s rank does not matter', async () => {
		const { state } = sandbox;
		const moderator = [...state.members.indices()].find((index) => state.members.roles(index).includes(state.guild.roleIds.Moderator))!;
		const event = role('Event');
		for (const userId of [state.members.idAt(moderator).toString(), sandbox.ownerId, sandbox.workerIds[0]!]) {
			await rest.put(Routes.guildMemberRole(sandbox.guildId, userId, event.id));
			expect(await rolesOf(userId)).toContain(event.id);
			await rest.delete(Routes.guildMemberRole(sandbox.guildId, userId, event.id));
			expect(await rolesOf(userId)).not.toContain(event.id);
		}
	});

	it('refuses a role at or above the bot’s highest with 403/50013, to give and to take', async () => {
		const [target] = renamableMembers(sandbox, 1);
		for (const name of ['Massnick', 'Moderator', 'Admin']) {
			const error = await apiFailure(rest.put(Routes.guildMemberRole(sandbox.guildId, target!, role(name).id)));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		}
		const moderator = sandbox.state.members.idAt(
			[...sandbox.state.members.indices()].find((index) => sandbox.state.members.roles(index).includes(role('Moderator').id))!,
		);
		const error = await apiFailure(rest.delete(Routes.guildMemberRole(sandbox.guildId, moderator.toString(), role('Moderator').id)));
		expect(error.code).toBe(RESTJSONErrorCodes.MissingPermissions);
		expect(await rolesOf(moderator.toString())).toContain(role('Moderator').id);
	});

	it('refuses the managed MEE6 role with 403/50013 although it is below the bot’s: nobody gives or takes it', async () => {
		const [target] = renamableMembers(sandbox, 1);
		const mee6 = role('MEE6');
		const given = await apiFailure(rest.put(Routes.guildMemberRole(sandbox.guildId, target!, mee6.id)));
		expect([given.status, given.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		const taken = await apiFailure(rest.delete(Routes.guildMemberRole(sandbox.guildId, mee6.tags!.bot_id!, mee6.id)));
		expect([taken.status, taken.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		expect(await rolesOf(mee6.tags!.bot_id!)).toContain(mee6.id);
		expect(await rolesOf(target!)).not.toContain(mee6.id);
	});

	it('refuses a bot without Manage Roles with 403/50013', async () => {
		const [target] = renamableMembers(sandbox, 1);
		const massnick = role('Massnick');
		const granted = massnick.permissions;
		const without = BigInt(granted) & ~PermissionFlagsBits.ManageRoles;
		await control.editRole(sandbox.guildId, massnick.id, { permissions: without.toString() });
		try {
			const error = await apiFailure(rest.put(Routes.guildMemberRole(sandbox.guildId, target!, role('Event').id)));
			expect([error.status, error.code]).toEqual([403, RESTJSONErrorCodes.MissingPermissions]);
		} finally {
			await control.editRole(sandbox.guildId, massnick.id, { permissions: granted });
		}
		await rest.put(Routes.guildMemberRole(sandbox.guildId, target!, role('Event').id));
		await rest.delete(Routes.guildMemberRole(sandbox.guildId, target!, role('Event').id));
	});

	it('answers @everyone as Discord does, 404/10011 Unknown Role, like a role that does not exist', async () => {
		const [target] = renamableMembers(sandbox, 1);
		for (const roleId of [sandbox.guildId, '100000000000000002']) {
			for (const request of [
				rest.put(Routes.guildMemberRole(sandbox.guildId, target!, roleId)),
				rest.delete(Routes.guildMemberRole(sandbox.guildId, target!, roleId)),
			]) {
				const error = await apiFailure(request);
				expect([error.status, error.code]).toEqual([404, RESTJSONErrorCodes.UnknownRole]);
			}
		}
	});

	it('answers 404/10007 for someone who is not a member, and 400/50035 for a role id that is not a snowflake', async () => {
		const unknown = await apiFailure(rest.put(Routes.guildMemberRole(sandbox.guildId, '100000000000000000', role('Event').id)));
		expect([unknown.status, unknown.code]).toEqual([404, RESTJSONErrorCodes.UnknownMember]);
		const [target] = renamableMembers(sandbox, 1);
		const malformed = await apiFailure(rest.put(Routes.guildMemberRole(sandbox.guildId, target!, 'event')));
		expect([malformed.status, malformed.code]).toEqual([400, RESTJSONErrorCodes.InvalidFormBodyOrContentType]);
	});

	it('logs the requests as one generalised route, with the member as the target', async () => {
		const { requests } = await control.requests(0);
		const roleRequests = requests.filter((request) => request.route === '/guilds/:id/members/:id/roles/:id' && request.status === 204);
		expect(new Set(roleRequests.map((request) => request.method))).toEqual(new Set(['PUT', 'DELETE']));
		for (const request of roleRequests) expect(request.path).toContain(`/members/${request.targetId}/roles/`);
	});
});

describe('the memberRole rate limit', () => {
	const running: Sandbox[] = [];
	afterEach(async () => {
		await Promise.all(running.splice(0).map((started) => started.close()));
	});

	const send = (on: Sandbox, method: 'PUT' | 'DELETE', token: string, userId: string, roleId: string): Promise<Response> =>
		fetch(`${on.apiUrl}/v10${Routes.guildMemberRole(on.guildId, userId, roleId)}`, { method, headers: { Authorization: `Bot ${token}` } });

	it('defaults to 10 per 10 s, per token and guild, as libraries observe', () => {
		expect(resolveSandboxOptions().rateLimits.routes.memberRole).toEqual({ limit: 10, windowMs: 10_000 });
	});

	it('is one bucket for PUT and DELETE, with its headers; past it 429 with Retry-After, scope user; other tokens and routes are unaffected', async () => {
		const limited = await startSandbox({ members: 60, workers: 1, seed: 22, rateLimits: { routes: { memberRole: { limit: 3, windowMs: 60_000 } } } });
		running.push(limited);
		const [a, b] = renamableMembers(limited, 2);
		const event = limited.state.guild.roleIds.Event;
		const buckets = new Set<string | null>();
		for (const [i, method] of (['PUT', 'DELETE', 'PUT'] as const).entries()) {
			const response = await send(limited, method, limited.bossToken, a!, event);
			expect(response.status).toBe(204);
			expect(await response.text()).toBe('');
			expect(response.headers.get('x-ratelimit-limit')).toBe('3');
			expect(response.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
			expect(Number(response.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(59);
			buckets.add(response.headers.get('x-ratelimit-bucket'));
		}
		expect(buckets.size).toBe(1);

		const refused = await send(limited, 'DELETE', limited.bossToken, b!, event);
		expect(refused.status).toBe(429);
		expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
		expect(await refused.json()).toMatchObject({ message: 'You are being rate limited.', global: false });
		expect(limited.state.members.roles(limited.state.memberIndex(limited.guildId, a!))).toContain(event);

		expect((await send(limited, 'PUT', limited.workerTokens[0]!, b!, event)).status).toBe(204);
		const rename = await fetch(`${limited.apiUrl}/v10${Routes.guildMember(limited.guildId, b!)}`, {
			method: 'PATCH',
			headers: { Authorization: `Bot ${limited.bossToken}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ nick: 'Other bucket' }),
		});
		expect(rename.status).toBe(200);
	});

	it('a REST client that follows the headers gives 15 members a role with zero 429s, over at least two windows', async () => {
		// timeScale 50: 10 per 0.2 s.
		const scaled = await startSandbox({ members: 60, workers: 1, seed: 23, timeScale: 50 });
		running.push(scaled);
		const client = new REST({ api: scaled.apiUrl }).setToken(scaled.bossToken);
		const event = scaled.state.guild.roleIds.Event;
		const targets = renamableMembers(scaled, 15);
		const started = performance.now();
		for (const userId of targets) await client.put(Routes.guildMemberRole(scaled.guildId, userId, event));
		expect(performance.now() - started).toBeGreaterThanOrEqual(200);
		const stats = (await (await fetch(`${scaled.controlUrl}/stats`)).json()) as { apps: Array<{ botUserId: string; requests: number; rateLimited: number }> };
		expect(stats.apps.find((app) => app.botUserId === scaled.bossId)).toMatchObject({ requests: 15, rateLimited: 0 });
		expect(targets.every((userId) => scaled.state.members.roles(scaled.state.memberIndex(scaled.guildId, userId)).includes(event))).toBe(true);
	});
});
