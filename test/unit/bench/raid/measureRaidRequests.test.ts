import type { SandboxRequest } from '@massnick/discord-sandbox';
import { describe, expect, it } from 'vitest';
import { measureRaidRequests } from '../../../../bench/raid/measureRaidRequests.js';

let seq = 0;
const request = (at: number, botUserId: string | null, method: string, route: string, status: number, targetId: string | null = null): SandboxRequest => ({
	seq: ++seq,
	at,
	botUserId,
	method,
	route,
	path: route,
	targetId,
	status,
	code: null,
});

const BAN = { method: 'PUT', route: '/guilds/:id/bans/:id', status: 204 } as const;

describe('measureRaidRequests', () => {
	const log = [
		request(100, 'boss', 'GET', '/guilds/:id/members', 200),
		request(110, 'w1', 'PUT', '/guilds/:id/bans/:id', 204, 'r1'),
		request(120, 'w1', 'PUT', '/guilds/:id/bans/:id', 429, 'r2'),
		request(130, 'other', 'PUT', '/guilds/:id/bans/:id', 204, 'real'),
		request(150, 'w1', 'PUT', '/guilds/:id/bans/:id', 204, 'r2'),
		request(170, 'w1', 'GET', '/guilds/:id/bans', 200),
		request(180, 'w1', 'PATCH', '/guilds/:id/members/:id', 403, 'real'),
	];

	it('counts only the subject’s tokens, its requests up to its last change and its 429s up to the end', () => {
		const measured = measureRaidRequests(log, new Set(['boss', 'w1']), BAN);
		expect(measured).toMatchObject({ firstChangeAt: 110, lastChangeAt: 150, changeRequests: 2, requests: 4, rateLimited429: 1 });
		expect(measured.byRoute).toEqual({ 'GET /guilds/:id/members 200': 1, 'PUT /guilds/:id/bans/:id 204': 2, 'PUT /guilds/:id/bans/:id 429': 1 });
	});

	it('names the targets of its answered writes only: a refused one touched nobody, another bot’s is not its own', () => {
		expect(measureRaidRequests(log, new Set(['boss', 'w1']), BAN).writeTargets).toEqual(['r1', 'r2']);
	});

	it('a subject that changed nobody has no first or last change, and every request counts', () => {
		const measured = measureRaidRequests(log, new Set(['boss']), BAN);
		expect(measured).toMatchObject({ firstChangeAt: null, lastChangeAt: null, changeRequests: 0, requests: 1 });
	});
});
