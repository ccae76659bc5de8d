import { REST } from '@discordjs/rest';
import { type APIGuildMember, PermissionFlagsBits, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMessage, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../../src/workers/partition.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
const RAID = 60;
const HOUR = 3_600_000;
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const REFUSED = (request: SandboxRequest): boolean => request.status === 403 || request.status === 429;
const WORKER_PERMISSIONS = ['ManageNicknames', 'ChangeNickname', 'ViewAuditLog', 'ManageRoles'];
/** The raid only: joined in the last half hour, with an account made in the last day. */
const AIM = { joined_after: '30m', created_after: '1d' };

const descriptionOf = (message: ControlMessage): string => ((message.embeds[0] ?? {}) as { description?: string }).description ?? '';

/**
 * /masstimeout end to end on a staged raid among real joiners: a moderator with Moderate Members
 * times out exactly the raid accounts the filters select, each by its owner worker, with no 403
 * and no 429; a raid account timed out longer already keeps its timeout, one holding
 * Administrator is left alone and counted apart; /restore lifts exactly what the job set and
 * gives back the shorter timeout one had. A member without Moderate Members, and workers without
 * it, are refused, naming it.
 */
describe('/masstimeout', () => {
	let stack: Stack;
	let guildId: string;
	let rest: REST;
	let raidIds: string[];
	let realIds: string[];
	let modId: string;
	let helperId: string;
	let longer: string;
	let shorter: string;
	let admin: string;
	let shorterUntil: string;
	let workerOf: Map<string, number>;

	/** Every member's `communication_disabled_until`, as Discord lists it. */
	async function timeouts(): Promise<Map<string, string | null>> {
		const page = (await rest.get(Routes.guildMembers(guildId), { query: new URLSearchParams({ limit: '1000' }) })) as APIGuildMember[];
		return new Map(page.map((member) => [member.user.id, member.communication_disabled_until ?? null]));
	}

	async function previewAndStart(command: string, options: Record<string, unknown>, userId: string) {
		const preview = await stack.preview(command, options, userId);
		const { lastSeq } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		await stack.press(preview.message.id, preview.start, userId);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, {
			what: `/${command} to end`,
			timeoutMs: 60_000,
		});
		return { preview, job: stack.massnick.jobs.last!, requests: (await stack.control.requests(lastSeq)).requests };
	}

	/** A command that must be refused: its private answer, once written, and the requests it caused. */
	async function refused(command: string, options: Record<string, unknown>, userId: string) {
		const previous = stack.massnick.jobs.last;
		const { lastSeq } = await stack.control.requests();
		const id = await stack.control.invoke(guildId, userId, command, options, stack.sandbox.channelId);
		let answer = '';
		await waitUntil(
			async () => {
				const { originalMessageId } = await stack.control.interaction(id);
				answer = originalMessageId ? (await stack.control.message(stack.sandbox.channelId, originalMessageId)).content : '';
				return answer !== '';
			},
			{ what: `the answer to /${command}` },
		);
		expect(stack.massnick.jobs.last).toBe(previous);
		return { answer, requests: (await stack.control.requests(lastSeq)).requests };
	}

	async function workersMayModerate(may: boolean): Promise<void> {
		const permissions = may ? [...WORKER_PERMISSIONS, 'ModerateMembers'] : WORKER_PERMISSIONS;
		await stack.control.editRole(guildId, stack.sandbox.state.guild.roleIds.Massnick, { permissions });
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(PermissionFlagsBits.ModerateMembers) === may), {
			what: `the workers to see Moderate Members ${may ? 'given' : 'taken'}`,
		});
	}

	beforeAll(async () => {
		stack = await startStack({
			members: 300,
			workers: WORKERS,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		});
		guildId = stack.sandbox.guildId;
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		rest = new REST({ api: stack.sandbox.apiUrl, retries: 0 }).setToken(stack.sandbox.bossToken);
		await workersMayModerate(true);
		({ raidIds, realIds } = await stack.control.stageRaid(guildId, { count: RAID, realJoiners: 20, windowMs: 10 * 60_000, seed: 3 }));
		const ours = new Set([...workerOf.keys(), stack.massnick.boss.client.user!.id]);
		const plain = (await stack.control.members(guildId)).filter(
			(member) => !ours.has(member.id) && !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId && !raidIds.includes(member.id),
		);
		// A moderator just below the workers, and a helper who may rename but not time out.
		const workersAt = stack.sandbox.state.guild.roles.find((role) => role.name === 'Massnick')!.position;
		const modRole = await stack.control.createRole(guildId, { name: 'Mod', permissions: ['ModerateMembers', 'ManageNicknames'], position: workersAt });
		const helperRole = await stack.control.createRole(guildId, { name: 'Helper', permissions: ['ManageNicknames'], position: 1 });
		const adminRole = await stack.control.createRole(guildId, { name: 'Deputy', permissions: ['Administrator'], position: 1 });
		modId = plain[0]!.id;
		helperId = plain[1]!.id;
		await stack.control.addMemberRole(guildId, modId, modRole.id);
		await stack.control.addMemberRole(guildId, helperId, helperRole.id);
		[longer, shorter, admin] = raidIds as [string, string, string];
		await stack.control.addMemberRole(guildId, admin, adminRole.id);
		// Another moderator's timeouts from before the job, by hand: one longer than the job's, one shorter.
		await rest.patch(Routes.guildMember(guildId, longer), { body: { communication_disabled_until: new Date(Date.now() + 48 * HOUR).toISOString() } });
		shorterUntil = new Date(Date.now() + 10 * 60_000).toISOString();
		await rest.patch(Routes.guildMember(guildId, shorter), { body: { communication_disabled_until: shorterUntil } });
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a member without Moderate Members is refused, naming it, and nothing is sent', async () => {
		const { answer, requests } = await refused('masstimeout', { duration: '1h', ...AIM }, helperId);
		expect(answer).toMatch(/Moderate Members/);
		expect(requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('a duration past 28 days is refused, naming the option and the bound', async () => {
		const { answer } = await refused('masstimeout', { duration: '30d' }, modId);
		expect(answer).toMatch(/duration: "30d" is longer than Discord lets a timeout last: 28 days at most/);
	});

	it('its preview shows real members with their end, pinging nobody; Cancel sends nothing', async () => {
		const preview = await stack.preview('masstimeout', { duration: '1h' }, modId);
		const description = descriptionOf(preview.message);
		expect(description).toMatch(/Timing out until/);
		expect(description).toMatch(/• @\S+: timed out until <t:\d+:f>/);
		expect(preview.message.mentions).toEqual([]);
		const { lastSeq } = await stack.control.requests();
		await stack.press(preview.message.id, preview.cancel, modId);
		expect((await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	it('aimed by account age, its preview shows raid accounts: the sample starts where the listing does', async () => {
		const raid = new Set(raidIds);
		const raidNames = new Set((await stack.control.members(guildId)).filter((member) => raid.has(member.id)).map((member) => member.username));
		const preview = await stack.preview('masstimeout', { duration: '1h', ...AIM }, modId);
		const shown = [...descriptionOf(preview.message).matchAll(/• @(\S+): timed out until/g)].map((match) => match[1]!.replaceAll('\\', ''));
		expect(shown.length).toBeGreaterThan(0);
		for (const name of shown) expect(raidNames.has(name), name).toBe(true);
		await stack.press(preview.message.id, preview.cancel, modId);
	});

	it('a dry run counts the raid and sends nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('masstimeout', { duration: '1h', ...AIM, dry_run: true }, modId);
		expect(job.progress.snapshot().changed).toBe(RAID - 2);
		expect((await stack.control.requests(lastSeq)).requests.filter(PATCH_MEMBER)).toEqual([]);
	});

	let end: string;
	let before: Map<string, string | null>;

	it('times out every raid account the filters select and no other, each by its owner worker, with no 403 and no 429', async () => {
		before = await timeouts();
		const { preview, job, requests } = await previewAndStart('masstimeout', { duration: '1h', ...AIM, reason: 'raid cleanup' }, modId);
		expect(descriptionOf(preview.message)).toMatch(/with Administrator up to 1 \(Discord never times them out: left alone\)/);
		const patches = requests.filter(PATCH_MEMBER);
		const expected = new Set(raidIds.filter((id) => id !== longer && id !== admin));
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(expected);
		expect(patches).toHaveLength(expected.size);
		for (const patch of patches) expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, WORKERS));
		expect(requests.filter(REFUSED)).toEqual([]);
		const snapshot = job.progress.snapshot();
		expect([snapshot.changed, snapshot.alreadyDone, snapshot.cant]).toEqual([RAID - 2, 1, 1]);

		const after = await timeouts();
		end = after.get(raidIds[5]!)!;
		expect(Date.parse(end)).toBeGreaterThan(Date.now() + HOUR - 5 * 60_000);
		for (const id of expected) expect(Date.parse(after.get(id)!), id).toBe(Date.parse(end));
		for (const id of [longer, admin, ...realIds, modId, helperId]) expect(after.get(id), id).toBe(before.get(id));
		const entries = (await stack.control.auditLog(guildId, 100)).audit_log_entries.filter(
			(entry) => expected.has(entry.target_id) && workerOf.has(entry.user_id),
		);
		expect(entries.length).toBe(Math.min(100, expected.size));
		for (const entry of entries) expect(entry.reason).toMatch(/^massnick timeout by .+: raid cleanup$/);
	});

	it('the same end again sends nothing: a member timed out until then is done', async () => {
		const endTime = `${new Date(Date.parse(end)).toISOString().slice(0, 19)}Z`;
		const { requests } = await previewAndStart('masstimeout', { duration: endTime, ...AIM, reason: 'raid cleanup' }, modId);
		expect(requests.filter(PATCH_MEMBER)).toEqual([]);
		expect(stack.massnick.jobs.last!.progress.snapshot().changed).toBe(0);
	});

	it('/restore lifts exactly the timeouts it set and gives back the shorter one a member had', async () => {
		const { requests } = await previewAndStart('restore', {}, modId);
		const lifted = requests.filter(PATCH_MEMBER);
		expect(new Set(lifted.map((request) => request.targetId!))).toEqual(new Set(raidIds.filter((id) => id !== longer && id !== admin)));
		expect(requests.filter(REFUSED)).toEqual([]);
		const after = await timeouts();
		for (const id of raidIds) {
			const was = before.get(id) ?? null;
			if (was === null) expect(after.get(id), id).toBe(null);
			else expect(Date.parse(after.get(id)!), id).toBe(Date.parse(was));
		}
		expect(Date.parse(after.get(shorter)!)).toBe(Date.parse(shorterUntil));
	});

	it('with workers lacking Moderate Members, the job is refused before anything runs, naming it', async () => {
		await workersMayModerate(false);
		try {
			const { answer, requests } = await refused('masstimeout', { duration: '1h', ...AIM }, stack.sandbox.ownerId);
			expect(answer).toMatch(/lack the Moderate Members permission this job needs/);
			expect(requests.filter(PATCH_MEMBER)).toEqual([]);
		} finally {
			await workersMayModerate(true);
		}
	});
});
