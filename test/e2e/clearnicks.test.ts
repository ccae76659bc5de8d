import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Stack, startStack } from '../support/startStack.js';

const WORKERS = 4;
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';

/** /clearnicks end to end: a dry run and a rerun send nothing, exactly the selected nicknames go, /restore gives them back. */
describe('/clearnicks', () => {
	let stack: Stack;
	let workerOf: Map<string, number>;
	let ours: Set<string>;
	let before: Map<string, string | null>;

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);

	/** Humans with a nickname the bots may change: not ours, not the owner, below the workers. */
	async function nicknamedHumans(): Promise<Set<string>> {
		const roles = new Map((await stack.control.state()).roles.map((role) => [role.id, role.position]));
		const workers = (await stack.control.state()).roles.find((role) => role.name === 'Massnick')!.position;
		return new Set(
			(await members())
				.filter((member) => !member.bot && member.nick !== null && !ours.has(member.id) && member.id !== stack.sandbox.ownerId)
				.filter((member) => Math.max(0, ...member.roles.map((id) => roles.get(id) ?? 0)) < workers)
				.map((member) => member.id),
		);
	}

	async function run(options: Record<string, unknown>, command = 'clearnicks') {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob(command, options);
		return { job, requests: (await stack.control.requests(lastSeq)).requests };
	}

	beforeAll(async () => {
		stack = await startStack({ members: 300, workers: WORKERS });
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		ours = new Set([...workerOf.keys(), stack.massnick.boss.client.user!.id]);
		// Some bots with nicknames too, for the filter to leave alone.
		for (const bot of (await members()).filter((member) => member.bot && !ours.has(member.id)))
			await stack.control.setOwnNick(stack.sandbox.guildId, bot.id, `${bot.username} (bot)`);
		before = new Map((await members()).map((member) => [member.id, member.nick]));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a dry run counts the nicknames it would remove and sends nothing', async () => {
		const expected = await nicknamedHumans();
		expect(expected.size).toBeGreaterThan(20);
		const { job, requests } = await run({ members: 'humans', dry_run: true });
		expect(job.progress.snapshot().changed).toBe(expected.size);
		expect(requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('removes exactly the selected nicknames, each by its owner worker, with no 403 or 429; a rerun sends nothing', async () => {
		const expected = await nicknamedHumans();
		const { requests } = await run({ members: 'humans' });
		const patches = requests.filter(PATCH_MEMBER);
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(expected);
		for (const patch of patches) expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, WORKERS));
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
		for (const member of await members()) {
			if (expected.has(member.id)) expect(member.nick).toBeNull();
			else expect(member.nick, member.id).toBe(before.get(member.id));
		}
		expect((await run({ members: 'humans' })).requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('/restore gives back every nickname it removed', async () => {
		const { requests } = await run({}, 'restore');
		expect(requests.filter(PATCH_MEMBER).length).toBeGreaterThan(20);
		for (const member of await members()) expect(member.nick, member.id).toBe(before.get(member.id));
	});
});
