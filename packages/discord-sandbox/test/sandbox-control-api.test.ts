import { REST } from '@discordjs/rest';
import { GatewayDispatchEvents, GatewayIntentBits, RESTJSONErrorCodes, Routes, type APIGuildMember } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember } from '../src/control/memberRoutes.js';
import type { SandboxDispatch } from '../src/gateway/GatewayHost.js';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import { apiFailure } from './support/apiFailure.js';

let sandbox: Sandbox;
let rest: REST;
const events: SandboxDispatch[] = [];

async function control<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; text: string }> {
	const response = await fetch(`${sandbox.controlUrl}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
	const text = await response.text();
	return { status: response.status, body: JSON.parse(text) as T, text };
}

beforeAll(async () => {
	sandbox = await startSandbox({ members: 1500, workers: 2, seed: 11, timeScale: 50 });
	sandbox.state.events.subscribe((event) => events.push(event));
	rest = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.bossToken);
});
afterAll(async () => {
	await sandbox.close();
});

describe('members', () => {
	it('lists every member in id order, or a page with limit and after', async () => {
		const all = await control<ControlMember[]>('GET', `/guilds/${sandbox.guildId}/members`);
		expect(all.body).toHaveLength(sandbox.state.members.size);
		expect(Object.keys(all.body[0]!).sort()).toEqual(['bot', 'globalName', 'id', 'joinedAt', 'nick', 'roles', 'username']);
		const page = await control<ControlMember[]>('GET', `/guilds/${sandbox.guildId}/members?limit=3&after=${all.body[9]!.id}`);
		expect(page.body.map((member) => member.id)).toEqual(all.body.slice(10, 13).map((member) => member.id));
		expect(all.body.filter((member) => member.bot).length).toBeGreaterThanOrEqual(3);
	});

	it('adds members with new, larger ids and dispatches GUILD_MEMBER_ADD', async () => {
		const before = sandbox.state.members.idAt(sandbox.state.members.length - 1);
		const { body } = await control<{ ids: string[] }>('POST', `/guilds/${sandbox.guildId}/members`, { count: 3 });
		expect(body.ids).toHaveLength(3);
		expect(BigInt(body.ids[0]!)).toBeGreaterThan(before);
		const added = events.filter((event) => event.t === GatewayDispatchEvents.GuildMemberAdd);
		expect(added.map((event) => (event.d as APIGuildMember).user.id)).toEqual(body.ids);
		expect(added[0]!.intent).toBe(GatewayIntentBits.GuildMembers);
		const fetched = (await rest.get(Routes.guildMember(sandbox.guildId, body.ids[2]!))) as APIGuildMember;
		expect(fetched.user.id).toBe(body.ids[2]);
	});

	it('removes a member (GUILD_MEMBER_REMOVE, then 404/10007 over REST)', async () => {
		const { body } = await control<{ ids: string[] }>('POST', `/guilds/${sandbox.guildId}/members`, { count: 1 });
		const removed = await control<{ removed: string }>('DELETE', `/guilds/${sandbox.guildId}/members/${body.ids[0]}`);
		expect(removed.status).toBe(200);
		expect(events.at(-1)).toMatchObject({ t: GatewayDispatchEvents.GuildMemberRemove, d: { guild_id: sandbox.guildId, user: { id: body.ids[0] } } });
		const error = await apiFailure(rest.get(Routes.guildMember(sandbox.guildId, body.ids[0]!)));
		expect(error.code).toBe(RESTJSONErrorCodes.UnknownMember);
	});

	it('lets a member set their own nickname: GUILD_MEMBER_UPDATE and an audit entry in their name', async () => {
		const { body: page } = await control<ControlMember[]>('GET', `/guilds/${sandbox.guildId}/members?limit=20`);
		const member = page.find((candidate) => !candidate.bot && candidate.id !== sandbox.ownerId)!;
		const changed = await control<ControlMember>('PATCH', `/guilds/${sandbox.guildId}/members/${member.id}`, { nick: 'My own choice' });
		expect(changed.body.nick).toBe('My own choice');
		expect(events.at(-1)).toMatchObject({ t: GatewayDispatchEvents.GuildMemberUpdate, d: { nick: 'My own choice', user: { id: member.id } } });
		const log = await control<{ audit_log_entries: Array<{ user_id: string; target_id: string }> }>('GET', `/audit-log?guildId=${sandbox.guildId}&limit=1`);
		expect(log.body.audit_log_entries[0]).toMatchObject({ user_id: member.id, target_id: member.id });
		expect((await control('PATCH', `/guilds/${sandbox.guildId}/members/${member.id}`, { nick: 'x'.repeat(33) })).status).toBe(400);
	});

	it('sends GUILD_MEMBER_UPDATE for bot renames, also to the bot itself when it is the target', async () => {
		await rest.patch(Routes.guildMember(sandbox.guildId, '@me'), { body: { nick: 'Boss Bot' } });
		expect(events.at(-1)).toMatchObject({
			t: GatewayDispatchEvents.GuildMemberUpdate,
			alsoToUserId: sandbox.bossId,
			d: { nick: 'Boss Bot', guild_id: sandbox.guildId },
		});
	});
});

describe('observing', () => {
	it('logs every REST request with the route generalised, the target, status and code', async () => {
		const { body: before } = await control<{ lastSeq: number }>('GET', '/requests?limit=1');
		await apiFailure(rest.patch(Routes.guildMember(sandbox.guildId, sandbox.ownerId), { body: { nick: 'no' } }));
		const { body } = await control<{ requests: Array<Record<string, unknown>>; lastSeq: number }>('GET', `/requests?after=${before.lastSeq}`);
		expect(body.requests).toHaveLength(1);
		expect(body.requests[0]).toMatchObject({
			seq: before.lastSeq + 1,
			botUserId: sandbox.bossId,
			method: 'PATCH',
			route: '/guilds/:id/members/:id',
			path: `/guilds/${sandbox.guildId}/members/${sandbox.ownerId}`,
			targetId: sandbox.ownerId,
			status: 403,
			code: RESTJSONErrorCodes.MissingPermissions,
		});
		expect(body.lastSeq).toBe(before.lastSeq + 1);
	});

	it('counts requests per bot without ever showing a token', async () => {
		const stats = await control<{
			apps: Array<{ botUserId: string; name: string; requests: number; byStatus: Record<string, number> }>;
			totals: { requests: number };
		}>('GET', '/stats');
		const boss = stats.body.apps.find((app) => app.botUserId === sandbox.bossId)!;
		expect(boss.name).toBe('Massnick Boss');
		expect(boss.byStatus['403']).toBeGreaterThanOrEqual(1);
		expect(stats.body.totals.requests).toBeGreaterThanOrEqual(boss.requests);
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) expect(stats.text).not.toContain(token);
	});

	it('summarises the state, and answers unknown endpoints with 404 and an error', async () => {
		const state = await control<{ members: number; apps: Array<{ id: string; membersIntent: boolean }>; roles: unknown[] }>('GET', '/state');
		expect(state.body.members).toBe(sandbox.state.members.size);
		expect(state.body.apps.map((app) => app.id)).toEqual([sandbox.bossId, ...sandbox.workerIds]);
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) expect(state.text).not.toContain(token);
		const missing = await control<{ error: string }>('GET', '/nothing');
		expect(missing.status).toBe(404);
		expect(missing.body.error).toContain('/_sandbox/nothing');
	});
});

describe('faults', () => {
	it('answers a share of bot requests with server errors', async () => {
		await control('POST', '/faults', { errorRate: 1 });
		try {
			const error = await rest.get(Routes.user('@me')).catch((thrown: unknown) => thrown);
			expect((error as { status: number }).status).toBeGreaterThanOrEqual(500);
		} finally {
			await control('POST', '/faults', { resetFaults: true });
		}
		expect(((await rest.get(Routes.user('@me'))) as { id: string }).id).toBe(sandbox.bossId);
	});

	it('delays answers by latencyMs', async () => {
		await control('POST', '/faults', { latencyMs: 150 });
		try {
			const started = performance.now();
			await rest.get(Routes.user('@me'));
			expect(performance.now() - started).toBeGreaterThanOrEqual(140);
		} finally {
			await control('POST', '/faults', { resetFaults: true });
		}
	});

	it('revokes a token (401 on REST) until the faults are reset', async () => {
		const worker = new REST({ api: sandbox.apiUrl }).setToken(sandbox.workerTokens[1]!);
		const state = await control<{ apps: Array<{ id: string; revoked: boolean }> }>('POST', '/faults', { revokeToken: { appId: sandbox.workerIds[1] } });
		expect(state.body.apps.find((app) => app.id === sandbox.workerIds[1])!.revoked).toBe(true);
		const raw = await fetch(`${sandbox.apiUrl}/v10/users/@me`, { headers: { Authorization: `Bot ${sandbox.workerTokens[1]}` } });
		expect(raw.status).toBe(401);
		await control('POST', '/faults', { resetFaults: true });
		expect(((await worker.get(Routes.user('@me'))) as { id: string }).id).toBe(sandbox.workerIds[1]);
	});

	it('refuses unknown applications and out-of-range values with 400/404', async () => {
		expect((await control('POST', '/faults', { errorRate: 2 })).status).toBe(400);
		expect((await control('POST', '/faults', { membersIntent: { appId: '1', enabled: false } })).status).toBe(404);
	});
});
