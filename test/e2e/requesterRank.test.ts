import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlMember, type ControlMessage, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import type { Job } from '../../src/jobs/Job.js';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { commandAnswer } from '../support/commandAnswer.js';
import { type Sandbox, type Stack, startMassnickOn, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const ROLE_ROUTE = (request: SandboxRequest): boolean => request.route === '/guilds/:id/members/:id/roles/:id';
const EPHEMERAL = 64;

type Embed = { title?: string; description?: string };
const embedOf = (message: ControlMessage): Embed => (message.embeds[0] ?? {}) as Embed;

/**
 * The requester's rank bounds every job, as Discord bounds them by hand: the server, with
 * a Helper (Manage Roles and Manage Nicknames, just above @everyone) and a Mod role (Kick and Ban
 * Members) above it but below the workers, and a Deputy with Administrator just below Mod.
 */
describe("the requester's rank bounds every job", () => {
	let stack: Stack;
	let guildId: string;
	let helperRole: string;
	let modRole: string;
	let deputyRole: string;
	let helperId: string;
	let deputyId: string;
	let ours: Set<string>;

	const members = (): Promise<ControlMember[]> => stack.control.members(guildId);
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;
	const positions = async (): Promise<Map<string, number>> => new Map((await stack.control.state()).roles.map((role) => [role.id, role.position]));
	const highest = (member: ControlMember, at: Map<string, number>): number => Math.max(0, ...member.roles.map((role) => at.get(role) ?? 0));
	const workersAt = async (): Promise<number> => (await positions()).get((await stack.control.state()).roles.find((role) => role.name === 'Massnick')!.id)!;

	/** Members other than our bots and the owner whose highest role is below `rank` and the workers'. */
	async function below(rank: number): Promise<Set<string>> {
		const at = await positions();
		const workers = await workersAt();
		const bound = Math.min(rank, workers);
		return new Set(
			(await members())
				.filter((member) => !ours.has(member.id) && member.id !== stack.sandbox.ownerId && highest(member, at) < bound)
				.map((member) => member.id),
		);
	}

	/** Runs a command as `userId`, waits for its preview and presses Start; returns the job and its requests. */
	async function previewAndStart(command: string, options: Record<string, unknown>, userId: string, between?: () => Promise<void>) {
		const previous = stack.massnick.jobs.last;
		const preview = await stack.preview(command, options, userId);
		await between?.();
		const { lastSeq } = await stack.control.requests();
		await stack.press(preview.message.id, preview.start, userId);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: `${command} to end`, timeoutMs: 60_000 });
		const job = stack.massnick.jobs.last!;
		return { preview, job, requests: await requestsSince(lastSeq) };
	}

	/** Runs a command that must be refused: its private answer once written, and every request it caused. */
	async function refused(command: string, options: Record<string, unknown>, userId: string) {
		const previous = stack.massnick.jobs.last;
		const { lastSeq } = await stack.control.requests();
		const id = await stack.control.invoke(guildId, userId, command, options, stack.sandbox.channelId);
		let answer: ControlMessage | undefined;
		await waitUntil(
			async () => {
				const { originalMessageId } = await stack.control.interaction(id);
				answer = originalMessageId ? await stack.control.message(stack.sandbox.channelId, originalMessageId) : undefined;
				return (answer?.content ?? '') !== '';
			},
			{ what: `the answer to /${command}` },
		);
		expect(stack.massnick.jobs.last).toBe(previous);
		return { answer: answer!, requests: await requestsSince(lastSeq) };
	}

	async function liveStatusOf(job: Job): Promise<string> {
		let text = '';
		await waitUntil(
			async () => {
				const messages = await stack.control.messages(stack.sandbox.channelId);
				const status = messages
					.reverse()
					.find((message) => (embedOf(message).title ?? '').startsWith(job.title) && /finished|cancelled|failed/.test(embedOf(message).title ?? ''));
				text = status ? (embedOf(status).description ?? '') : '';
				return status !== undefined;
			},
			{ what: 'the live status to show the ended job' },
		);
		return text;
	}

	beforeAll(async () => {
		stack = await startStack({ members: 400, workers: 4, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		guildId = stack.sandbox.guildId;
		ours = new Set([...stack.massnick.fleet.workers.map((worker) => worker.client.user!.id), stack.massnick.boss.client.user!.id]);
		const workers = await workersAt();
		// Created just below the workers' role, in this order: Deputy ends below Mod.
		modRole = (await stack.control.createRole(guildId, { name: 'Mod', permissions: ['KickMembers', 'BanMembers'], position: workers })).id;
		deputyRole = (await stack.control.createRole(guildId, { name: 'Deputy', permissions: ['Administrator'], position: workers })).id;
		helperRole = (await stack.control.createRole(guildId, { name: 'Helper', permissions: ['ManageRoles', 'ManageNicknames'], position: 1 })).id;
		const plain = (await members()).filter((member) => !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId);
		helperId = plain[0]!.id;
		deputyId = plain[1]!.id;
		await stack.control.addMemberRole(guildId, helperId, helperRole);
		await stack.control.addMemberRole(guildId, deputyId, deputyRole);
		const at = await positions();
		// The ladder the issue describes: @everyone < Helper < … < Deputy < Mod < the workers' role.
		expect(at.get(helperRole)).toBe(1);
		expect(at.get(deputyRole)! + 1).toBe(at.get(modRole));
		expect(at.get(modRole)! + 1).toBe(await workersAt());
	});

	afterAll(async () => {
		await stack?.close();
	});

	it("a Helper's /massrole add of a role above them is refused before any member request, naming the role and the Helper's highest role", async () => {
		const { answer, requests } = await refused('massrole add', { role: modRole }, helperId);
		expect(answer.flags & EPHEMERAL).toBe(EPHEMERAL);
		expect(answer.content).toContain('@Mod');
		expect(answer.content).toContain('your highest role is @Helper');
		expect(answer.content).toMatch(/server owner or a member whose highest role is above it/);
		expect(requests.filter(ROLE_ROUTE)).toEqual([]);
		expect((await members()).filter((member) => member.roles.includes(modRole))).toEqual([]);
	});

	it("a Helper's /massnick renames only the members ranked below them, and its preview says how many are out of the Helper's reach", async () => {
		const reach = await below(1);
		const botsReach = await below(Number.POSITIVE_INFINITY);
		expect(reach.size).toBeGreaterThan(20);
		expect(botsReach.size - reach.size).toBeGreaterThan(100);
		const { preview, job, requests } = await previewAndStart('massnick', { name: 'Helper {username}' }, helperId);
		const description = embedOf(preview.message).description ?? '';
		expect(description).toMatch(/out of your reach (up to )?[\d,–]+ \(ranked at or above you/);
		expect(description).toMatch(/The first 100 members listed: .*\d+ out of your reach/);

		expect(job.result?.state).toBe('finished');
		const patched = new Set(requests.filter(PATCH_MEMBER).map((request) => request.targetId!));
		expect(patched).toEqual(reach);
		for (const request of requests) expect([403, 429]).not.toContain(request.status);
		const snapshot = job.progress.snapshot();
		expect(snapshot.changed).toBe(reach.size);
		// Within the bots' reach but at or above the Helper, the Helper included: left alone, no request.
		expect(snapshot.aboveRequester).toBe(botsReach.size - reach.size);
		expect(await liveStatusOf(job)).toContain(`${snapshot.aboveRequester.toLocaleString('en-US')} ranked at or above`);
		const renamed = (await members()).filter((member) => member.nick === `Helper ${member.username}`).map((member) => member.id);
		expect(new Set(renamed)).toEqual(reach);
	});

	it('a member with Administrator ranked below Mod is bounded the same: @Mod refused, and a rename reaches only members below them', async () => {
		const { answer, requests } = await refused('massrole add', { role: modRole }, deputyId);
		expect(answer.content).toContain('your highest role is @Deputy');
		expect(requests.filter(ROLE_ROUTE)).toEqual([]);

		const at = await positions();
		const deputyAt = at.get(deputyRole)!;
		const reach = await below(deputyAt);
		const botsReach = await below(Number.POSITIVE_INFINITY);
		expect(botsReach.size).toBeGreaterThan(reach.size);
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: 'Deputy {username}', dry_run: true }, deputyId);
		const snapshot = job.progress.snapshot();
		expect(snapshot.changed).toBe(reach.size);
		expect(snapshot.aboveRequester).toBe(botsReach.size - reach.size);
		expect((await requestsSince(lastSeq)).filter(PATCH_MEMBER)).toEqual([]);
	});

	it("the owner reaches every member below the bots; a Helper's /restore of that job puts back only the members below the Helper and leaves the journal open for the rest", async () => {
		const botsReach = await below(Number.POSITIVE_INFINITY);
		const ownerRun = await previewAndStart('massnick', { name: 'Owner {username}' }, stack.sandbox.ownerId);
		expect(new Set(ownerRun.requests.filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(botsReach);
		expect(ownerRun.job.progress.snapshot().aboveRequester).toBe(0);

		const reach = await below(1);
		const helperRestore = await previewAndStart('restore', {}, helperId);
		expect(embedOf(helperRestore.preview.message).description).toMatch(/out of your reach/);
		expect(new Set(helperRestore.requests.filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(reach);
		expect(helperRestore.job.progress.snapshot().aboveRequester).toBe(botsReach.size - reach.size);
		const after = await members();
		for (const member of after) {
			if (reach.has(member.id)) expect(member.nick, member.id).toBe(`Helper ${member.username}`);
			else if (botsReach.has(member.id)) expect(member.nick, member.id).toBe(`Owner ${member.username}`);
		}
		// Not marked restored: the owner's /restore finishes what the Helper could not reach.
		const open = (await Journal.list(stack.dataDir, guildId)).find((summary) => summary.header.target === 'Owner {username}')!;
		expect(open.state).not.toBe('restored');

		const ownerRestore = await previewAndStart('restore', {}, stack.sandbox.ownerId);
		expect(new Set(ownerRestore.requests.filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(
			new Set([...botsReach].filter((id) => !reach.has(id))),
		);
		expect((await Journal.list(stack.dataDir, guildId)).find((summary) => summary.header.target === 'Owner {username}')!.state).toBe('restored');
		// The Helper's own job is next in line; undone so the next tests start from the originals.
		await previewAndStart('restore', {}, stack.sandbox.ownerId);
		expect((await members()).filter((member) => member.nick?.startsWith('Helper '))).toEqual([]);
	});

	it("a Helper's /restore of a job that gave @Mod is refused, saying who can run it; the owner's undoes it", async () => {
		const level10 = (await stack.control.state()).roles.find((role) => role.name === 'Level 10')!.id;
		const given = await previewAndStart('massrole add', { role: modRole, only_role: level10 }, stack.sandbox.ownerId);
		expect(given.job.progress.snapshot().changed).toBeGreaterThan(0);

		const { answer, requests } = await refused('restore', {}, helperId);
		expect(answer.content).toContain('Undoing that job gives or takes @Mod');
		expect(answer.content).toContain('your highest role is @Helper');
		expect(answer.content).toContain('massnick run restore');
		expect(requests.filter(ROLE_ROUTE)).toEqual([]);

		await previewAndStart('restore', {}, stack.sandbox.ownerId);
		expect((await members()).filter((member) => member.roles.includes(modRole))).toEqual([]);
	});

	it('a Helper demoted between the preview and Start gets the new bound', async () => {
		// A second, higher role for the Helper: their preview is planned with it.
		const at = await positions();
		const senior = await stack.control.createRole(guildId, { name: 'Senior helper', permissions: ['ManageNicknames'], position: at.get(deputyRole)! });
		await stack.control.addMemberRole(guildId, helperId, senior.id);
		const wideReach = await below((await positions()).get(senior.id)!);
		const narrowReach = await below(1);
		expect(wideReach.size).toBeGreaterThan(narrowReach.size);

		const { job, requests } = await previewAndStart('massnick', { name: 'Demoted {username}' }, helperId, async () => {
			await stack.control.removeMemberRole(guildId, helperId, senior.id);
		});
		expect(job.result?.state).toBe('finished');
		expect(new Set(requests.filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(narrowReach);
		await previewAndStart('restore', {}, stack.sandbox.ownerId);
	});
});

describe('permissions.allowedUserIds and allowedRoleIds let a member run commands, never act above their rank', () => {
	let sandbox: Sandbox;
	let stack: Stack;
	let dataDir: string;
	let plainId: string;
	let memberRoleHolder: string;
	let memberRole: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 200, workers: 2, seed: 11, timeScale: 100 });
		const control = new SandboxControl(sandbox.controlUrl);
		memberRole = (await control.state()).roles.find((role) => role.name === 'Member')!.id;
		const all = await control.members(sandbox.guildId);
		const others = all.filter((member) => !member.bot && member.id !== sandbox.ownerId);
		plainId = others.find((member) => member.roles.length === 0)!.id;
		memberRoleHolder = others.find((member) => member.roles.length === 1 && member.roles[0] === memberRole)!.id;
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-test-'));
		// Neither holds Manage Nicknames: the operator allowed them by id and by role.
		stack = await startMassnickOn(sandbox, dataDir, sandbox.workerTokens, (config) => ({
			...config,
			permissions: { ...config.permissions, allowedUserIds: [plainId], allowedRoleIds: [memberRole] },
		}));
	});

	afterAll(async () => {
		await stack?.close();
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('an allowed member with no role may run /massnick, and it reaches nobody: everyone ranks at or above them', async () => {
		const job = await stack.runJob('massnick', { name: 'Allowed {username}', dry_run: true }, plainId);
		const snapshot = job.progress.snapshot();
		expect(snapshot.changed).toBe(0);
		expect(snapshot.aboveRequester).toBeGreaterThan(100);
	});

	it('a member allowed by role reaches only the members ranked below that role, and may not hand out that role', async () => {
		const members = await stack.control.members(sandbox.guildId);
		const roles = new Map((await stack.control.state()).roles.map((role) => [role.id, role.position]));
		const memberAt = roles.get(memberRole)!;
		const below = members.filter(
			(member) => !member.bot && member.id !== sandbox.ownerId && Math.max(0, ...member.roles.map((role) => roles.get(role) ?? 0)) < memberAt,
		);
		const job = await stack.runJob('massnick', { name: 'Allowed {username}', dry_run: true }, memberRoleHolder);
		expect(job.progress.snapshot().changed).toBe(below.length);
		const previous = stack.massnick.jobs.last;
		const id = await stack.control.invoke(sandbox.guildId, memberRoleHolder, 'massrole add', { role: memberRole }, sandbox.channelId);
		const answer = await stack.control.waitForResponses(id, 1);
		expect(JSON.stringify(answer.responses[0]!.body)).toContain('your highest role is @Member');
		expect(stack.massnick.jobs.last).toBe(previous);
	});

	it('stand in for no moderation permission: an allowed member without them may not time out, kick, ban or lock down', async () => {
		const previous = stack.massnick.jobs.last;
		const { lastSeq } = await stack.control.requests();
		for (const [command, options, lacking] of [
			['masstimeout', { duration: '1h', dry_run: true }, /Moderate Members permission\./],
			['masskick', { dry_run: true }, /Kick Members permission\./],
			['massban', { dry_run: true }, /Ban Members and Manage Guild permissions\./],
			['lockdown on', {}, /Manage Guild permission\./],
		] as const) {
			for (const userId of [plainId, memberRoleHolder]) {
				const answer = await commandAnswer(stack.control, await stack.control.invoke(sandbox.guildId, userId, command, options, sandbox.channelId));
				expect(answer.ephemeral, command).toBe(true);
				// Not offered the allow-list either: it cannot let them.
				expect(answer.text, command).toMatch(lacking);
				expect(answer.text, command).not.toMatch(/operator allowed/);
			}
		}
		expect(stack.massnick.jobs.last).toBe(previous);
		const sent = (await stack.control.requests(lastSeq)).requests.filter((request) => request.route.startsWith('/guilds/') && request.method !== 'GET');
		expect(sent.filter((request) => request.route !== '/interactions/:id/:token/callback')).toEqual([]);
	});
});
