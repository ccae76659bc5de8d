import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ControlMessage, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/Config.js';
import { ErrorCodes, type MassnickError } from '../../src/errors.js';
import type { Job } from '../../src/jobs/Job.js';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { type Sandbox, type Stack, startMassnickOn } from '../support/startStack.js';
import { startRule } from '../support/startRule.js';
import { waitUntil } from '../support/waitUntil.js';

const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
const MEMBER_ROUTE = '/guilds/:id/members/:id';
const RECHECKED = "standing rules' requesters re-checked";

const settings = (config: Config): Config => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } });

/**
 * A standing rule's requester is re-checked while the rule runs, not only at a restart: a
 * moderator holding only Manage Roles makes a `/massrole add keep` rule, and it stops when their
 * role loses Manage Roles, when their role is moved below the rule's role, or when they leave;
 * its channel is told once, /status says who lost what and when, no later joiner gets the role,
 * and a restart does not resume it. A change that takes nothing from them (their nickname) leaves
 * the rule running.
 */
describe('a standing rule stops when its requester loses what it needs, while it runs', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let stack: Stack;
	let dataDir: string;
	let guildId: string;
	let channelId: string;
	let newcomerRole: string;
	let helperRole: string;
	let modId: string;
	const stopped: Job[] = [];

	const rechecks = (): number => stack.logs().split(RECHECKED).length - 1;
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await control.requests(seq)).requests;
	const stopNotices = async (): Promise<ControlMessage[]> =>
		(await control.messages(channelId)).filter((message) => message.content.startsWith('🛑 The standing rule'));
	const hasRole = async (userId: string): Promise<boolean> =>
		(await control.members(guildId)).find((member) => member.id === userId)?.roles.includes(newcomerRole) ?? false;

	/** `userId` (the moderator) makes the rule from its preview; it is returned once its sweep is over and it follows joins. */
	const makeRule = (userId = modId): Promise<Job> => startRule(stack, 'massrole add', { role: newcomerRole }, userId);

	/** Waits for `rule` to stop for its requester; returns its error. */
	async function stoppedFor(rule: Job): Promise<MassnickError> {
		const result = await rule.ended();
		expect(result.state).toBe('failed');
		const error = result.error as MassnickError;
		expect(error.code).toBe(ErrorCodes.RuleRequesterLost);
		await waitUntil(() => stack.massnick.jobs.rules.all.length === 0, { what: 'the rule gone from the rules' });
		stopped.push(rule);
		return error;
	}

	/** Someone joins once `rule` has stopped: the boss hears of it, and nobody gives them the role. */
	async function joinerLeftAlone(): Promise<void> {
		const { lastSeq } = await control.requests();
		const boss = stack.massnick.boss.guild;
		const before = boss.memberCount;
		const { ids } = await control.addMembers(guildId, 1);
		await waitUntil(() => boss.memberCount === before + 1, { what: 'the boss to hear of the joiner' });
		const puts = (await requestsSince(lastSeq)).filter((request) => request.method === 'PUT' && request.route === ROLE_ROUTE);
		expect(puts).toEqual([]);
		expect(await hasRole(ids[0]!)).toBe(false);
	}

	/** What /status answers, every message of it, as text. */
	async function statusText(): Promise<string> {
		const id = await control.invoke(guildId, (await control.state()).ownerId, 'status', {}, channelId);
		await waitUntil(async () => JSON.stringify((await control.interaction(id)).responses).includes('Stopped rules'), {
			what: '/status to list the stopped rules',
		});
		return JSON.stringify((await control.interaction(id)).responses);
	}

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 200, workers: 3, seed: 5, timeScale: 100 });
		control = new SandboxControl(sandbox.controlUrl);
		guildId = sandbox.guildId;
		channelId = sandbox.channelId;
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-test-'));
		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, settings);
		// @everyone < @Newcomer (what the rule gives) < @Helper (Manage Roles, and nothing else).
		newcomerRole = (await control.createRole(guildId, { name: 'Newcomer', position: 1 })).id;
		helperRole = (await control.createRole(guildId, { name: 'Helper', permissions: ['ManageRoles'], position: 2 })).id;
		const members = await control.members(guildId);
		modId = members.find((member) => !member.bot && member.roles.length === 0 && member.id !== sandbox.ownerId)!.id;
		await control.addMemberRole(guildId, modId, helperRole);
		const at = new Map((await control.state()).roles.map((role) => [role.id, role.position]));
		expect(at.get(helperRole)).toBe(at.get(newcomerRole)! + 1);
	});

	afterAll(async () => {
		await stack?.close();
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('a change that takes nothing from the requester (their nickname) is re-checked and leaves the rule running: a joiner gets the role', async () => {
		const rule = await makeRule();
		const { lastSeq } = await control.requests();
		const before = rechecks();
		await control.setOwnNick(guildId, modId, 'Still a Helper');
		await waitUntil(() => rechecks() > before, { what: 'the requester re-checked after their rename' });
		const bossId = stack.massnick.boss.client.user!.id;
		// Read from Discord, not from a cache: their roles and permissions as they are now.
		expect(
			(await requestsSince(lastSeq)).some(
				(request) => request.method === 'GET' && request.route === MEMBER_ROUTE && request.targetId === modId && request.botUserId === bossId,
			),
		).toBe(true);
		expect(rule.result).toBeUndefined();
		const { ids } = await control.addMembers(guildId, 1);
		await waitUntil(() => hasRole(ids[0]!), { what: 'the joiner to get @Newcomer' });
		expect(stack.massnick.jobs.rules.all).toEqual([rule]);
	});

	it('Manage Roles taken from their role stops the rule: its channel is told once, /status says why, a later joiner is left alone', async () => {
		const [rule] = stack.massnick.jobs.rules.all as [Job];
		await control.editRole(guildId, helperRole, { permissions: [] });
		const error = await stoppedFor(rule);
		expect(error.message).toContain(`${rule.startedBy.tag}, who started it, no longer has the Manage Roles permission`);
		expect(error.message).toContain('Make the rule again to go on with it, or /restore to undo what it did');
		await waitUntil(async () => (await stopNotices()).length === 1, { what: 'the channel to be told' });
		const [notice] = await stopNotices();
		expect(notice!.content).toContain(rule.id);
		expect(notice!.content).toContain('no longer has the Manage Roles permission');
		expect(notice!.content).toMatch(/stopped at <t:\d+:f>/);
		expect(await control.mentioningMessages(channelId)).toEqual([]);
		const status = await statusText();
		expect(status).toContain(rule.id);
		expect(status).toContain('no longer has the Manage Roles permission');
		expect(status).toMatch(/stopped <t:\d+:R>/);
		await joinerLeftAlone();
		// Its journal ended as a /cancel's does: no restart resumes it, /restore still undoes it.
		const [summary] = (await Journal.list(dataDir, guildId)).filter((journal) => journal.header.jobId === rule.id);
		expect(summary?.state).toBe('cancelled');
	});

	it("their role moved below the rule's role stops the rule made again: it is out of their reach", async () => {
		await control.editRole(guildId, helperRole, { permissions: ['ManageRoles'] });
		const rule = await makeRule();
		expect(rule.id).toBe(stopped[0]!.id);
		await control.editRole(guildId, helperRole, { position: 1 });
		const error = await stoppedFor(rule);
		// The rule's sweep gave them @Newcomer too, which is their highest role now: no member gives
		// a role equal to their own highest.
		expect(await hasRole(modId)).toBe(true);
		expect(error.message).toContain(`${rule.startedBy.tag}, who started it, no longer ranks above what it changes (their highest role is @Newcomer)`);
		await waitUntil(async () => (await stopNotices()).length === 2, { what: 'the channel to be told' });
		await joinerLeftAlone();
	});

	it('@Helper taken from the requester (their member update) stops their rule', async () => {
		await control.editRole(guildId, helperRole, { position: 3 });
		const rule = await makeRule();
		await control.removeMemberRole(guildId, modId, helperRole);
		const error = await stoppedFor(rule);
		expect(error.message).toContain(`${rule.startedBy.tag}, who started it, no longer has the Manage Roles permission`);
		await waitUntil(async () => (await stopNotices()).length === 3, { what: 'the channel to be told' });
	});

	it('the requester leaving the server stops their rule', async () => {
		await control.addMemberRole(guildId, modId, helperRole);
		const rule = await makeRule();
		await control.removeMember(guildId, modId);
		const error = await stoppedFor(rule);
		expect(error.message).toContain(`${rule.startedBy.tag}, who started it, is no longer a member of the server`);
		await waitUntil(async () => (await stopNotices()).length === 4, { what: 'the channel to be told' });
	});

	it('the server given to someone else stops the rule its owner made: they no longer own it', async () => {
		const ownerId = sandbox.ownerId;
		// They keep Manage Roles through @Helper, and so the permission: what they lose is the owner's rank.
		await control.addMemberRole(guildId, ownerId, helperRole);
		const rule = await makeRule(ownerId);
		const heir = (await control.members(guildId)).find((member) => !member.bot && member.id !== ownerId)!;
		await control.transferOwnership(guildId, heir.id);
		const error = await stoppedFor(rule);
		expect(error.message).toContain(`${rule.startedBy.tag}, who started it, no longer owns the server`);
		expect(error.message).toContain('the server owner can');
		await waitUntil(async () => (await stopNotices()).length === 5, { what: 'the channel to be told' });
	});

	it('a restart resumes no stopped rule and tells nobody again; /status still says why it stopped', async () => {
		const messagesBefore = (await control.messages(channelId)).length;
		await stack.close();
		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, settings);
		expect(await stack.massnick.resume()).toBeUndefined();
		expect(stack.massnick.jobs.rules.all).toEqual([]);
		expect((await control.messages(channelId)).length).toBe(messagesBefore);
		const status = await statusText();
		expect(status).toContain('no longer owns the server');
	});
});
