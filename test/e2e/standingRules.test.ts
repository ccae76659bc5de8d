import type { SandboxRequest } from '@massnick/discord-sandbox';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Answer, commandAnswer } from '../support/commandAnswer.js';
import { startRule } from '../support/startRule.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
/** Joiners over the run, in waves, as the bar has them: each given the role within seconds. */
const JOINERS = 300;
const WAVES = 10;
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';

/**
 * Standing rules (`keep`): after its sweep a job goes on applying to whoever joins, each joiner
 * by the worker that owns them, and a /sanitize rule to a member who renames themself; its own
 * change never triggers it again. A second rule on the same field is refused, naming the first;
 * /status lists the rules, /cancel ends one by its title or its id, and /restore then undoes it
 * like any job.
 */
describe('standing rules', () => {
	let stack: Stack;
	let guildId: string;
	let memberRole: string;
	let roleRule: Job;
	let sanitizeRule: Job;
	let joiners: string[];
	let hadRoleBefore: Set<string>;

	const answer = async (command: string, options: Record<string, unknown> = {}): Promise<Answer> =>
		commandAnswer(stack.control, await stack.control.invoke(guildId, stack.sandbox.ownerId, command, options, stack.sandbox.channelId));

	beforeAll(async () => {
		stack = await startStack({ members: 300, workers: WORKERS, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		guildId = stack.sandbox.guildId;
		// Joiners come with @Member in the sandbox: the rule hands out a role of its own.
		memberRole = (await stack.control.createRole(guildId, { name: 'Newcomer', position: 1 })).id;
		hadRoleBefore = new Set((await stack.control.members(guildId)).filter((member) => member.roles.includes(memberRole)).map((member) => member.id));
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('/masstimeout keep created_after:1d times out the accounts a day old that join, and reads the day anew (no real joiner)', async () => {
		// First: the sandbox gives older accounts only to joiners above the guild's newest id's time.
		await stack.control.editRole(guildId, stack.sandbox.state.guild.roleIds.Massnick, {
			permissions: ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles', 'ModerateMembers'],
		});
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(PermissionFlagsBits.ModerateMembers)), {
			what: 'the workers to see Moderate Members given',
		});
		const rule = await startRule(stack, 'masstimeout', { duration: '1h', created_after: '1d' });
		expect(rule.filters.ago).toEqual({ createdAfter: '1d' });
		const { lastSeq } = await stack.control.requests();
		const { raidIds, realIds } = await stack.control.stageRaid(guildId, { count: 12, realJoiners: 6, windowMs: 60_000 });
		const timedOut = async (): Promise<Set<string>> =>
			new Set(
				(await stack.control.requests(lastSeq)).requests
					.filter((request) => PATCH_MEMBER(request) && request.status === 200)
					.map((request) => request.targetId!),
			);
		await waitUntil(
			async () => {
				const ids = await timedOut();
				return raidIds.every((id) => ids.has(id));
			},
			{ what: 'every day-old account timed out', timeoutMs: 30_000 },
		);
		await waitUntil(() => rule.progress.snapshot().done >= rule.progress.snapshot().total, { what: 'the real joiners planned too' });
		const reached = await timedOut();
		expect(realIds.filter((id) => reached.has(id))).toEqual([]);
		expect([...reached].sort()).toEqual([...raidIds].sort());
		expect((await answer('cancel', { rule: rule.id })).text).toContain(rule.id);
		expect((await rule.ended()).state).toBe('cancelled');
	});

	it('/massrole add keep gives the role to everyone who joins after its sweep, each by its owner worker, within seconds', async () => {
		roleRule = await startRule(stack, 'massrole add', { role: memberRole });
		expect(stack.massnick.jobs.current).toBeUndefined();
		const { lastSeq } = await stack.control.requests();
		joiners = [];
		const joinedAt = new Map<string, number>();
		for (let wave = 0; wave < WAVES; wave++) {
			const at = Date.now();
			const { ids } = await stack.control.addMembers(guildId, JOINERS / WAVES);
			for (const id of ids) joinedAt.set(id, at);
			joiners.push(...ids);
			await waitUntil(
				async () => {
					const members = await stack.control.members(guildId);
					return ids.every((id) => members.find((member) => member.id === id)?.roles.includes(memberRole));
				},
				{ what: `wave ${wave + 1}'s joiners to get @Newcomer`, timeoutMs: 30_000 },
			);
		}
		const puts = (await stack.control.requests(lastSeq)).requests.filter((request) => request.method === 'PUT' && request.route === ROLE_ROUTE);
		expect(new Set(puts.map((request) => request.targetId))).toEqual(new Set(joiners));
		// Within seconds of their join, each (the sandbox's clock, at the stack's timeScale, is faster still).
		const slowest = Math.max(...puts.map((put) => put.at - joinedAt.get(put.targetId!)!));
		expect(slowest).toBeLessThan(5_000);
		expect(puts).toHaveLength(JOINERS);
		const workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		for (const put of puts) expect(workerOf.get(put.botUserId!)).toBe(workerIndexOf(put.targetId!, WORKERS));
		expect(puts.every((request) => request.status === 204 || request.status === 200)).toBe(true);
		expect(roleRule.following).toBe(true);
	});

	it('a second rule on the same role is refused, naming the first', async () => {
		const refused = await answer('massrole remove', { role: memberRole, keep: true });
		expect(refused.text).toContain(`A standing rule already sets that: **${roleRule.title}** (${roleRule.id}`);
		expect(stack.massnick.jobs.rules.all).toEqual([roleRule]);
	});

	it('/sanitize keep cleans a member who renames themself to a hoisted name, once, and leaves a clean rename alone', async () => {
		sanitizeRule = await startRule(stack, 'sanitize', {});
		const [hoister, plain] = joiners as [string, string];
		const { lastSeq } = await stack.control.requests();
		await stack.control.setOwnNick(guildId, hoister, '!!!𝐀𝐝𝐦𝐢𝐧');
		await stack.control.setOwnNick(guildId, plain, 'Quiet Name');
		await waitUntil(async () => (await stack.control.members(guildId)).find((member) => member.id === hoister)?.nick === 'Admin', {
			what: 'the hoisted name cleaned',
			timeoutMs: 30_000,
		});
		// Our own change comes back as a member update: nothing more is sent for it.
		await waitUntil(() => sanitizeRule.progress.snapshot().changed >= 1, { what: 'the rule to count its change' });
		const patches = (await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER).filter((request) => request.botUserId !== null);
		const ours = patches.filter((request) => request.targetId === hoister && request.botUserId !== hoister);
		expect(ours).toHaveLength(1);
		expect(patches.filter((request) => request.targetId === plain && request.botUserId !== plain)).toEqual([]);
		expect((await stack.control.members(guildId)).find((member) => member.id === plain)?.nick).toBe('Quiet Name');
	});

	it('a second nickname rule is refused, naming the first', async () => {
		const refused = await answer('massnick', { name: 'Event {username}', keep: true });
		expect(refused.text).toContain(`A standing rule already sets that: **${sanitizeRule.title}**`);
		expect(refused.text).toContain('nickname');
	});

	it('/status lists the rules; /cancel ends one by its title and one by its id; /restore then undoes them', async () => {
		const status = await stack.control.waitForResponses(await stack.control.invoke(guildId, stack.sandbox.ownerId, 'status', {}, stack.sandbox.channelId), 2);
		const listed = JSON.stringify(status.responses);
		expect(listed).toContain('Standing rules');
		expect(listed).toContain(roleRule.id);
		expect(listed).toContain(sanitizeRule.id);
		// Each with what it did: applied, already done, can't, left alone (outside its filters).
		expect(listed).toMatch(/applied [\d,]+ · already done [\d,]+ · can't [\d,]+ · left alone [\d,]+/);

		const bad = await answer('cancel', { rule: 'no such rule' });
		expect(bad.text).toMatch(/No standing rule is called “no such rule”/);
		const byTitle = await answer('cancel', { rule: sanitizeRule.title.toUpperCase() });
		expect(byTitle.text).toContain('Ending the standing rule');
		await sanitizeRule.ended();
		const byId = await answer('cancel', { rule: roleRule.id });
		expect(byId.text).toContain(roleRule.id);
		expect((await roleRule.ended()).state).toBe('cancelled');
		expect(stack.massnick.jobs.rules.all).toEqual([]);

		// The newest journal first: the names, then the role, from exactly the members the rule gave it to.
		const names = await stack.runJob('restore');
		expect(names.result?.state).toBe('finished');
		const { lastSeq } = await stack.control.requests();
		const roles = await stack.runJob('restore');
		expect(roles.result?.state).toBe('finished');
		const taken = (await stack.control.requests(lastSeq)).requests.filter((request) => request.method === 'DELETE' && request.route === ROLE_ROUTE);
		const members = await stack.control.members(guildId);
		const given = new Set(members.filter((member) => !member.bot && member.id !== stack.sandbox.ownerId).map((member) => member.id));
		for (const id of taken.map((request) => request.targetId!)) expect(hadRoleBefore.has(id), id).toBe(false);
		for (const id of joiners) expect(taken.map((request) => request.targetId)).toContain(id);
		for (const member of members) if (given.has(member.id)) expect(member.roles.includes(memberRole), member.id).toBe(hadRoleBefore.has(member.id));
	});
});
