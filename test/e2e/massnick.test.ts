import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Stack, startStack } from '../support/startStack.js';

const NAME = '🎃 {display_name}';

function expected(member: ControlMember): string {
	return Array.from(`🎃 ${member.globalName ?? member.username}`)
		.slice(0, 32)
		.join('')
		.trim();
}

describe('massnick end to end on the sandbox', () => {
	let stack: Stack;
	let before: Map<string, ControlMember>;
	let workerOf: Map<string, number>;

	beforeAll(async () => {
		stack = await startStack({ members: 400, workers: 4 });
		before = new Map((await stack.control.members(stack.sandbox.guildId)).map((member) => [member.id, member]));
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a dry run plans the job and sends no PATCH', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: NAME, dry_run: true });
		const { requests } = await stack.control.requests(lastSeq);
		expect(requests.filter((request) => request.method === 'PATCH' && request.route.includes('/members/'))).toEqual([]);
		expect(job.progress.snapshot().changed).toBeGreaterThan(300);
	});

	it('renames every renamable member, each by the worker that owns it, and never earns a 403', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: NAME });
		expect(job.result?.state).toBe('finished');
		const { requests } = await stack.control.requests(lastSeq);
		const patches = requests.filter((request) => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id');
		expect(patches.length).toBeGreaterThan(300);
		for (const patch of patches) {
			expect(patch.status).toBe(200);
			expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, 4));
		}
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);

		const members = await stack.control.members(stack.sandbox.guildId);
		const ourBots = new Set(workerOf.keys()).add(stack.massnick.boss.client.user!.id);
		const renamedIds = new Set(patches.map((patch) => patch.targetId));
		for (const member of members) {
			if (ourBots.has(member.id)) continue;
			if (renamedIds.has(member.id)) expect(member.nick).toBe(expected(member));
		}
		// The owner and everyone above the bots keep their nickname, without a request.
		const owner = members.find((member) => member.id === stack.sandbox.ownerId)!;
		expect(owner.nick).toBe(before.get(owner.id)!.nick);
		expect(renamedIds.has(stack.sandbox.ownerId)).toBe(false);
		expect(job.progress.snapshot().cant).toBeGreaterThan(0);
	});

	it('a rerun sends no PATCH: the nickname is the done marker', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: NAME });
		const { requests } = await stack.control.requests(lastSeq);
		expect(requests.filter((request) => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id')).toEqual([]);
		expect(job.progress.snapshot().alreadyDone).toBeGreaterThan(300);
	});

	it('/restore dry run sends no PATCH', async () => {
		const { lastSeq } = await stack.control.requests();
		await stack.runJob('restore', { dry_run: true });
		const { requests } = await stack.control.requests(lastSeq);
		expect(requests.filter((request) => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id')).toEqual([]);
	});

	it('/restore returns every original nickname and leaves alone a member who changed theirs since', async () => {
		const members = await stack.control.members(stack.sandbox.guildId);
		const changer = members.find((member) => member.nick === expected(member) && member.id !== stack.sandbox.ownerId)!;
		await stack.control.setOwnNick(stack.sandbox.guildId, changer.id, 'my own choice');
		const job = await stack.runJob('restore');
		expect(job.result?.state).toBe('finished');
		const after = await stack.control.members(stack.sandbox.guildId);
		for (const member of after) {
			if (member.id === changer.id) expect(member.nick).toBe('my own choice');
			else expect(member.nick).toBe(before.get(member.id)?.nick ?? null);
		}
	});

	it('refuses a member without Manage Nicknames, privately, and runs nothing', async () => {
		const members = await stack.control.members(stack.sandbox.guildId);
		const plain = members.find((member) => !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId)!;
		const last = stack.massnick.jobs.last;
		const id = await stack.control.invoke(stack.sandbox.guildId, plain.id, 'massnick', { name: 'nope' }, stack.sandbox.channelId);
		const interaction = await stack.control.waitForResponses(id, 1);
		const reply = interaction.responses[0]!.body as { type: number; data: { flags?: number; content?: string } };
		expect(reply.data.flags! & 64).toBe(64);
		expect(reply.data.content).toMatch(/Manage Nicknames/);
		// The refusal is the last thing the boss does with this interaction: it answers from the
		// permission check, before any command handler runs, and returns. A handler starts a job only
		// after deferring, and an interaction takes one first response, so with the refusal in, no
		// job can come of it: the check is final here.
		expect(interaction.responses).toHaveLength(1);
		expect(stack.massnick.jobs.last).toBe(last);
	});

	it('refuses a plain name over 32 characters before anything runs', async () => {
		const { lastSeq } = await stack.control.requests();
		const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massnick', { name: 'x'.repeat(33) }, stack.sandbox.channelId);
		const interaction = await stack.control.waitForResponses(id, 1);
		const reply = interaction.responses[0]!.body as { data: { flags?: number; content?: string } };
		expect(reply.data.content).toMatch(/33/);
		expect(reply.data.content).toMatch(/32/);
		const { requests } = await stack.control.requests(lastSeq);
		expect(requests.filter((request) => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id')).toEqual([]);
	});

	it('never logs a token', () => {
		const logs = stack.logs();
		expect(logs.length).toBeGreaterThan(0);
		for (const token of [stack.sandbox.bossToken, ...stack.sandbox.workerTokens]) expect(logs).not.toContain(token);
	});
});
