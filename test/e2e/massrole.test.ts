import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Stack, startStack } from '../support/startStack.js';

const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const WORKERS = 4;

describe('/massrole end to end on the sandbox', () => {
	let stack: Stack;
	let eventId: string;
	let workerOf: Map<string, number>;
	let ourBots: Set<string>;
	/** Members who had the role before any job: a restore must leave it with them. */
	let holdersBefore: string[];

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);
	const holders = async (): Promise<Set<string>> => new Set((await members()).filter((member) => member.roles.includes(eventId)).map((member) => member.id));

	/** Runs a command and returns the job with every request it caused. */
	async function run(command: string, options: Record<string, unknown>): Promise<{ job: Awaited<ReturnType<Stack['runJob']>>; requests: SandboxRequest[] }> {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob(command, options);
		const { requests } = await stack.control.requests(lastSeq);
		return { job, requests };
	}

	const roleRequests = (requests: SandboxRequest[], method?: string): SandboxRequest[] =>
		requests.filter((request) => request.route === ROLE_ROUTE && (method === undefined || request.method === method));

	function expectOwnedAndClean(requests: SandboxRequest[]): void {
		for (const request of roleRequests(requests)) {
			expect(request.status).toBe(204);
			expect(workerOf.get(request.botUserId!)).toBe(workerIndexOf(request.targetId!, WORKERS));
		}
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
	}

	beforeAll(async () => {
		stack = await startStack({ members: 400, workers: WORKERS });
		eventId = (await stack.control.state()).roles.find((role) => role.name === 'Event')!.id;
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		ourBots = new Set([...workerOf.keys(), stack.massnick.boss.client.user!.id]);
		const everyone = (await members()).filter((member) => !ourBots.has(member.id));
		holdersBefore = [everyone[3]!.id, everyone[50]!.id, everyone[200]!.id];
		for (const id of holdersBefore) await stack.control.addMemberRole(stack.sandbox.guildId, id, eventId);
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a dry run counts who would get the role and sends nothing', async () => {
		const { job, requests } = await run('massrole add', { role: eventId, dry_run: true });
		expect(roleRequests(requests)).toEqual([]);
		const lacking = (await members()).filter((member) => !ourBots.has(member.id) && !member.roles.includes(eventId));
		expect(job.progress.snapshot().changed).toBe(lacking.length);
	});

	it('add gives the role to every member who lacks it, each by the worker that owns them, with no 403 or 429', async () => {
		const { job, requests } = await run('massrole add', { role: eventId });
		expect(job.result?.state).toBe('finished');
		expectOwnedAndClean(requests);
		const puts = roleRequests(requests, 'PUT');
		const after = await members();
		const expected = after.filter((member) => !ourBots.has(member.id) && !holdersBefore.includes(member.id));
		expect(new Set(puts.map((put) => put.targetId))).toEqual(new Set(expected.map((member) => member.id)));
		expect(puts).toHaveLength(expected.length);
		for (const member of after) if (!ourBots.has(member.id)) expect(member.roles, member.id).toContain(eventId);
		// The owner and members ranked above the workers get it too: Discord checks the role, not them.
		expect(after.find((member) => member.id === stack.sandbox.ownerId)!.roles).toContain(eventId);
	});

	it('a rerun sends nothing: the roles are the done marker', async () => {
		const { job, requests } = await run('massrole add', { role: eventId });
		expect(roleRequests(requests)).toEqual([]);
		expect(job.progress.snapshot().alreadyDone).toBeGreaterThan(390);
	});

	it('/restore takes the role from exactly the members who got it from the job and still have it', async () => {
		// A moderator took it from one member since: there is nothing left to undo for them.
		const everyone = (await members()).filter((member) => !ourBots.has(member.id) && !holdersBefore.includes(member.id));
		const takenSince = everyone[10]!.id;
		await stack.control.removeMemberRole(stack.sandbox.guildId, takenSince, eventId);
		const before = await holders();

		const { job, requests } = await run('restore', {});
		expect(job.mode).toBe('restore');
		expect(job.action.type).toBe('role-add');
		expectOwnedAndClean(requests);
		const deletes = roleRequests(requests, 'DELETE');
		const expected = [...before].filter((id) => !holdersBefore.includes(id) && !ourBots.has(id));
		expect(new Set(deletes.map((request) => request.targetId))).toEqual(new Set(expected));
		expect(deletes.map((request) => request.targetId)).not.toContain(takenSince);
		expect(await holders()).toEqual(new Set(holdersBefore));
	});

	it('remove takes the role from every holder, and /restore gives it back only to those who lost it to the job', async () => {
		const { requests: removed } = await run('massrole remove', { role: eventId });
		expectOwnedAndClean(removed);
		expect(new Set(roleRequests(removed, 'DELETE').map((request) => request.targetId))).toEqual(new Set(holdersBefore));
		expect(await holders()).toEqual(new Set());

		// One of them got it back from a moderator since: the restore has nothing to do for them.
		await stack.control.addMemberRole(stack.sandbox.guildId, holdersBefore[0]!, eventId);
		const { job, requests } = await run('restore', {});
		expect(job.action.type).toBe('role-remove');
		expectOwnedAndClean(requests);
		expect(
			roleRequests(requests, 'PUT')
				.map((request) => request.targetId)
				.sort(),
		).toEqual(holdersBefore.slice(1).sort());
		expect(await holders()).toEqual(new Set(holdersBefore));
	});

	it('refuses a role the workers could never hand out, before anything runs, saying what to change', async () => {
		const roles = (await stack.control.state()).roles;
		for (const [name, expected] of [
			['Moderator', /at or above the workers' highest role/],
			['MEE6', /managed/],
		] as const) {
			const role = roles.find((candidate) => candidate.name === name)!;
			const { lastSeq } = await stack.control.requests();
			const id = await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'massrole add', { role: role.id }, stack.sandbox.channelId);
			const interaction = await stack.control.waitForResponses(id, 1);
			expect(JSON.stringify(interaction.responses)).toMatch(expected);
			const { requests } = await stack.control.requests(lastSeq);
			expect(roleRequests(requests)).toEqual([]);
		}
	});
});
