import { REST } from '@discordjs/rest';
import { Routes, type APIGuildMember } from 'discord-api-types/v10';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../src/startSandbox.js';
import type { SandboxOptions } from '../src/SandboxOptions.js';
import { renamableMembers } from '../src/renamableMembers.js';

const running: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions): Promise<Sandbox> {
	const sandbox = await startSandbox({ members: 200, workers: 2, ...options });
	running.push(sandbox);
	return sandbox;
}
afterEach(async () => {
	await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

function patchMember(sandbox: Sandbox, token: string, userId: string, nick: string): Promise<Response> {
	return fetch(`${sandbox.apiUrl}/v10${Routes.guildMember(sandbox.guildId, userId)}`, {
		method: 'PATCH',
		headers: { Authorization: `Bot ${token}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({ nick }),
	});
}

async function stats(
	sandbox: Sandbox,
): Promise<{ apps: Array<{ botUserId: string; rateLimited: number; requests: number }>; invalidRequests: { total: number } }> {
	return (await fetch(`${sandbox.controlUrl}/stats`)).json() as never;
}

describe('per-route limits', () => {
	it('the ban routes: a bulk ban 1 a second per token per guild, the ban list 10 per 10 s, each its own bucket', async () => {
		const sandbox = await sandboxWith({});
		await fetch(`${sandbox.controlUrl}/guilds/${sandbox.guildId}/roles/${sandbox.state.guild.roleIds.Massnick}`, {
			method: 'PATCH',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ permissions: ['ManageNicknames', 'BanMembers', 'ManageGuild'] }),
		});
		const call = (token: string, method: string, path: string, body?: unknown) =>
			fetch(`${sandbox.apiUrl}/v10${path}`, {
				method,
				headers: { Authorization: `Bot ${token}`, 'Content-Type': 'application/json' },
				...(body === undefined ? {} : { body: JSON.stringify(body) }),
			});
		const [first, second] = renamableMembers(sandbox, 2);
		const bulk = await call(sandbox.workerTokens[0]!, 'POST', Routes.guildBulkBan(sandbox.guildId), { user_ids: [first] });
		expect([bulk.status, bulk.headers.get('x-ratelimit-limit'), bulk.headers.get('x-ratelimit-remaining')]).toEqual([200, '1', '0']);
		expect(Number(bulk.headers.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(1);
		const again = await call(sandbox.workerTokens[0]!, 'POST', Routes.guildBulkBan(sandbox.guildId), { user_ids: [second] });
		expect(again.status).toBe(429);
		// Another worker's token has a bulk ban of its own.
		expect((await call(sandbox.workerTokens[1]!, 'POST', Routes.guildBulkBan(sandbox.guildId), { user_ids: [second] })).status).toBe(200);
		const list = await call(sandbox.workerTokens[0]!, 'GET', Routes.guildBans(sandbox.guildId));
		expect([list.status, list.headers.get('x-ratelimit-limit')]).toEqual([200, '10']);
		expect(list.headers.get('x-ratelimit-bucket')).not.toBe(bulk.headers.get('x-ratelimit-bucket'));
	});

	it('a REST client that follows the headers renames 25 members with zero 429s, over at least two windows', async () => {
		// timeScale 20: PATCH member allows 10 per 0.5 s.
		const sandbox = await sandboxWith({ timeScale: 20 });
		const rest = new REST({ api: sandbox.apiUrl }).setToken(sandbox.bossToken);
		const targets = renamableMembers(sandbox, 25);
		const started = performance.now();
		for (const [i, id] of targets.entries()) {
			const member = (await rest.patch(Routes.guildMember(sandbox.guildId, id), { body: { nick: `Renamed ${i}` } })) as APIGuildMember;
			expect(member.nick).toBe(`Renamed ${i}`);
		}
		const elapsed = performance.now() - started;
		expect(elapsed).toBeGreaterThanOrEqual(2 * 500);
		const boss = (await stats(sandbox)).apps.find((app) => app.botUserId === sandbox.bossId)!;
		expect(boss.requests).toBe(25);
		expect(boss.rateLimited).toBe(0);
	});

	it('sends the X-RateLimit headers on every answer, then 429 with Retry-After, scope user and Discord’s body', async () => {
		const sandbox = await sandboxWith({});
		const targets = renamableMembers(sandbox, 11);
		const buckets = new Set<string | null>();
		for (const [i, id] of targets.slice(0, 10).entries()) {
			const response = await patchMember(sandbox, sandbox.bossToken, id, `n${i}`);
			expect(response.status).toBe(200);
			expect(response.headers.get('x-ratelimit-limit')).toBe('10');
			expect(response.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
			expect(Number(response.headers.get('x-ratelimit-reset-after'))).toBeGreaterThan(9);
			expect(response.headers.get('x-ratelimit-reset-after')).toMatch(/^\d+\.\d{3}$/);
			expect(Number(response.headers.get('x-ratelimit-reset')) * 1000).toBeGreaterThan(Date.now());
			buckets.add(response.headers.get('x-ratelimit-bucket'));
		}
		expect(buckets.size).toBe(1);
		expect([...buckets][0]).toMatch(/^[0-9a-f]{32}$/);

		const limited = await patchMember(sandbox, sandbox.bossToken, targets[10]!, 'too fast');
		expect(limited.status).toBe(429);
		expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(9);
		expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
		expect(limited.headers.get('x-ratelimit-global')).toBeNull();
		const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
		expect(body.message).toBe('You are being rate limited.');
		expect(body.global).toBe(false);
		expect(body.retry_after).toBeGreaterThan(9);
		expect(body.retry_after).toBeLessThanOrEqual(10);

		// Another token has its own bucket.
		expect((await patchMember(sandbox, sandbox.workerTokens[0]!, targets[10]!, 'other token')).status).toBe(200);
	});

	it('with a time scale, reports scaled windows and a fractional Retry-After', async () => {
		const sandbox = await sandboxWith({ timeScale: 40 });
		const targets = renamableMembers(sandbox, 11);
		for (const id of targets.slice(0, 10)) await patchMember(sandbox, sandbox.bossToken, id, 'x');
		const limited = await patchMember(sandbox, sandbox.bossToken, targets[10]!, 'y');
		expect(limited.status).toBe(429);
		const retryAfter = Number(limited.headers.get('retry-after'));
		expect(retryAfter).toBeGreaterThan(0);
		expect(retryAfter).toBeLessThanOrEqual(0.25);
		expect(Number(limited.headers.get('x-ratelimit-reset-after'))).toBeLessThanOrEqual(0.25);
	});
});

describe('global limit', () => {
	it('refuses requests over the per-token global limit with X-RateLimit-Global and no route headers', async () => {
		const sandbox = await sandboxWith({ rateLimits: { global: { limit: 5, windowMs: 10_000 } } });
		const get = (token: string) => fetch(`${sandbox.apiUrl}/v10/users/@me`, { headers: { Authorization: `Bot ${token}` } });
		const statuses: number[] = [];
		let limited: Response | undefined;
		for (let i = 0; i < 6; i++) {
			const response = await get(sandbox.bossToken);
			statuses.push(response.status);
			if (response.status === 429) limited = response;
		}
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
		expect(limited!.headers.get('x-ratelimit-global')).toBe('true');
		expect(limited!.headers.get('x-ratelimit-scope')).toBe('global');
		expect(limited!.headers.get('x-ratelimit-bucket')).toBeNull();
		expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(await limited!.json()).toMatchObject({ message: 'You are being rate limited.', global: true });
		// Per token: the worker still has its whole budget.
		expect((await get(sandbox.workerTokens[0]!)).status).toBe(200);
	});
});

describe('invalid-request ceiling', () => {
	it('blocks the address after too many 401/403/429 answers, even for valid requests', async () => {
		const sandbox = await sandboxWith({ rateLimits: { invalidRequests: { limit: 5, windowMs: 60_000, banMs: 60_000 } } });
		for (let i = 0; i < 5; i++) {
			const response = await fetch(`${sandbox.apiUrl}/v10/users/@me`, { headers: { Authorization: 'Bot wrong' } });
			expect(response.status).toBe(401);
		}
		const blocked = await fetch(`${sandbox.apiUrl}/v10/users/@me`, { headers: { Authorization: `Bot ${sandbox.bossToken}` } });
		expect(blocked.status).toBe(429);
		expect(blocked.headers.get('x-ratelimit-scope')).toBe('global');
		expect(((await blocked.json()) as { message: string }).message).toMatch(/blocked from accessing our API temporarily/);
		expect((await stats(sandbox)).invalidRequests.total).toBe(5);
	});

	it('does not count 429s of scope shared', async () => {
		const sandbox = await sandboxWith({ rateLimits: { invalidRequests: { limit: 3, windowMs: 60_000, banMs: 60_000 } } });
		await fetch(`${sandbox.controlUrl}/faults`, { method: 'POST', body: JSON.stringify({ sharedWriteLimit: { limit: 2, windowMs: 60_000 } }) });
		const targets = renamableMembers(sandbox, 6);
		const tokens = [sandbox.bossToken, sandbox.workerTokens[0]!, sandbox.workerTokens[1]!];
		const statuses: number[] = [];
		let shared: Response | undefined;
		for (const [i, id] of targets.entries()) {
			const response = await patchMember(sandbox, tokens[i % 3]!, id, 'shared');
			statuses.push(response.status);
			if (response.status === 429) shared = response;
		}
		// Two writes pass guild-wide, across tokens; the rest are refused without a ban.
		expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
		expect(shared!.headers.get('x-ratelimit-scope')).toBe('shared');
		expect(await shared!.json()).toMatchObject({ message: 'The resource is being rate limited.', global: false });
		expect((await stats(sandbox)).invalidRequests.total).toBe(0);
	});
});
