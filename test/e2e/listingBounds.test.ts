import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { DISCORD_EPOCH } from '../../src/discord/snowflake.js';
import { type Stack, startStack } from '../support/startStack.js';

const MEMBERS = 2600;
const LIST_PAGE = (request: SandboxRequest): boolean => request.method === 'GET' && request.route === '/guilds/:id/members' && request.status === 200;
const createdAt = (id: string): number => Number((BigInt(id) >> 22n) + BigInt(DISCORD_EPOCH));

/**
 * A job aimed by account age, or at a file of ids, lists only the part of the guild's id order
 * those can select from: a user id begins with the time the account was made and Discord lists
 * members in id order, so a raid cleanup aimed `created_after:1d` does not page through the whole
 * server. It still selects exactly the members a whole listing would.
 */
describe('a listing bounded by the filters', () => {
	let stack: Stack;
	let ids: string[];

	async function dryRun(options: Record<string, unknown>) {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: 'Bounded {username}', dry_run: true, ...options });
		const pages = (await stack.control.requests(lastSeq)).requests.filter(LIST_PAGE).length;
		return { changed: job.progress.snapshot().changed, pages };
	}

	beforeAll(async () => {
		stack = await startStack({ members: MEMBERS, workers: 2, timeScale: 100 });
		const ours = new Set([...stack.massnick.fleet.workers.map((worker) => worker.client.user!.id), stack.massnick.boss.client.user!.id]);
		ids = (await stack.control.members(stack.sandbox.guildId))
			.filter((member) => !ours.has(member.id) && member.id !== stack.sandbox.ownerId && member.roles.length === 0)
			.map((member) => member.id)
			.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('created_after lists from that moment on and counts the same members as a whole listing would', async () => {
		const whole = await dryRun({ no_roles: true });
		expect(whole.pages).toBeGreaterThanOrEqual(3);
		expect(whole.changed).toBe(ids.length);
		// The newest tenth of the plain members' accounts.
		const since = createdAt(ids[Math.floor(ids.length * 0.9)]!);
		const expected = ids.filter((id) => createdAt(id) >= since).length;
		const recent = await dryRun({ no_roles: true, created_after: new Date(since).toISOString() });
		expect(recent.changed).toBe(expected);
		expect(recent.pages).toBe(1);
	});

	it('a file of ids lists from its first id to its last', async () => {
		const listed = ids.slice(Math.floor(ids.length * 0.4), Math.floor(ids.length * 0.4) + 50);
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: 'Bounded {username}', dry_run: true, ids_file: { filename: 'ids.txt', content: listed.join('\n') } });
		const pages = (await stack.control.requests(lastSeq)).requests.filter(LIST_PAGE).length;
		expect(job.progress.snapshot().changed).toBe(listed.length);
		expect(pages).toBe(1);
	});
});
