import { REST } from '@discordjs/rest';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { PermissionFlagsBits, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '../../src/jobs/Job.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { commandAnswer } from '../support/commandAnswer.js';
import { type BulkBanCall, raidStack } from '../support/raidStack.js';
import type { Stack } from '../support/startStack.js';

const WORKERS = 4;
const RAID = 300;
const BULK_BAN = '/guilds/:id/bulk-ban';
const UNBAN = (request: SandboxRequest): boolean => request.method === 'DELETE' && request.route === '/guilds/:id/bans/:id';
const AIM = { joined_after: '15m', name_matches: '/free nitro/' };
/** The same options on every run: a rerun with them continues the same journal. */
const BAN = { ...AIM, delete_messages: '1h', reason: 'raid of 2026-07' };

/**
 * /massban end to end on a staged raid: the filters aim it at exactly the raid accounts, the
 * workers ban their own slices 200 a call with Bulk Guild Ban, the requester's rank bounds it,
 * a rerun sends nothing, and /restore unbans exactly the users it banned.
 */
describe('/massban on a staged raid', () => {
	let stack: Stack;
	let raidIds: string[];
	let realIds: string[];
	let calls: BulkBanCall[];
	let roleId: (name: string) => string;
	/** Raid accounts holding a role at or above the low-ranked moderator's: out of their reach. */
	let aboveLow: Set<string>;
	/** A member whose highest role is Level 10, given Ban Members and Manage Guild with it. */
	let lowModerator: string;
	let moderator: string;
	/** Banned before any job, by hand: no restore may lift it. */
	let bannedBefore: string;
	/** The job id of the first run that banned: its journal's. */
	let firstBan: string;

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);
	const isBanned = (id: string): boolean => stack.sandbox.state.bans.has(BigInt(id));

	async function run(
		command: string,
		options: Record<string, unknown>,
		userId: string,
	): Promise<{ job: Job; requests: SandboxRequest[]; sent: BulkBanCall[] }> {
		const { lastSeq } = await stack.control.requests();
		const before = calls.length;
		const job = await stack.runJob(command, options, userId);
		const { requests } = await stack.control.requests(lastSeq);
		return { job, requests, sent: calls.slice(before) };
	}

	function expectCleanBulkBans({ requests, sent }: { requests: SandboxRequest[]; sent: BulkBanCall[] }): void {
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
		expect(requests.filter((request) => request.route === BULK_BAN).every((request) => request.status === 200)).toBe(true);
		for (const call of sent) {
			expect(call.ids.length).toBeGreaterThan(0);
			expect(call.ids.length).toBeLessThanOrEqual(200);
			for (const id of call.ids) expect(workerIndexOf(id, WORKERS), id).toBe(call.worker);
		}
	}

	beforeAll(async () => {
		({ stack, calls, roleId } = await raidStack({ members: 2000, workers: WORKERS }));
		({ raidIds, realIds } = await stack.control.stageRaid(stack.sandbox.guildId, { count: RAID, realJoiners: 100 }));
		const everyone = await members();
		const ordinary = everyone.filter((member) => member.roles.length === 2 && member.roles.includes(roleId('Level 10')) && !member.bot);
		lowModerator = ordinary[0]!.id;
		moderator = everyone.find((member) => member.roles.includes(roleId('Moderator')))!.id;
		await stack.control.editRole(stack.sandbox.guildId, roleId('Level 10'), { permissions: ['BanMembers', 'ManageGuild'] });
		aboveLow = new Set(raidIds.slice(0, 40));
		for (const [n, id] of raidIds.slice(0, 40).entries())
			await stack.control.addMemberRole(stack.sandbox.guildId, id, roleId(n % 4 === 0 ? 'Level 10' : 'Staff'));
		bannedBefore = ordinary[1]!.id;
		const hand = new REST({ api: stack.sandbox.apiUrl, retries: 0 }).setToken(stack.sandbox.workerTokens[0]!);
		await hand.put(Routes.guildBan(stack.sandbox.guildId, bannedBefore), { body: {} });
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a dry run counts exactly the raid accounts and bans nobody', async () => {
		const { job, requests } = await run('massban', { ...AIM, dry_run: true }, stack.sandbox.ownerId);
		expect(job.progress.snapshot().changed).toBe(RAID);
		expect(requests.filter((request) => request.route === BULK_BAN)).toEqual([]);
		expect(raidIds.some(isBanned)).toBe(false);
	});

	it('refuses a member without Ban Members, and a moderator without Manage Guild, naming what each lacks', async () => {
		const staff = (await members()).find((member) => member.roles.includes(roleId('Staff')) && !member.roles.includes(roleId('Level 10')))!;
		for (const [userId, lacks, notNamed] of [
			[staff.id, 'Ban Members and Manage Guild permissions', undefined],
			[moderator, 'Manage Guild permission', 'Ban Members'],
		] as const) {
			const { lastSeq } = await stack.control.requests();
			const id = await stack.control.invoke(stack.sandbox.guildId, userId, 'massban', AIM, stack.sandbox.channelId);
			const answer = await commandAnswer(stack.control, id);
			expect(answer.ephemeral).toBe(true);
			expect(answer.text).toContain(`needs the ${lacks}`);
			if (notNamed) expect(answer.text).not.toContain(notNamed);
			const { requests } = await stack.control.requests(lastSeq);
			expect(requests.filter((request) => request.route === BULK_BAN)).toEqual([]);
		}
		expect(raidIds.some(isBanned)).toBe(false);
	});

	it('a moderator ranked below some raid accounts bans every other raid account and none of those, 200 a call by owner', async () => {
		const ran = await run('massban', BAN, lowModerator);
		expect(ran.job.result?.state).toBe('finished');
		firstBan = ran.job.id;
		expectCleanBulkBans(ran);
		const expected = raidIds.filter((id) => !aboveLow.has(id));
		expect(ran.sent.flatMap((call) => call.ids).sort()).toEqual([...expected].sort());
		expect(raidIds.filter(isBanned).sort()).toEqual([...expected].sort());
		expect(ran.job.progress.snapshot()).toMatchObject({ changed: expected.length, aboveRequester: aboveLow.size, failed: 0 });
		for (const id of [...realIds, lowModerator, stack.sandbox.ownerId]) expect(isBanned(id), id).toBe(false);
	});

	it('a moderator with Ban Members and Manage Guild bans the rest with its reason; a rerun sends nothing', async () => {
		const moderatorPermissions = BigInt(stack.sandbox.state.rolesById.get(roleId('Moderator'))!.permissions);
		await stack.control.editRole(stack.sandbox.guildId, roleId('Moderator'), {
			permissions: String(moderatorPermissions | PermissionFlagsBits.ManageGuild),
		});
		const ran = await run('massban', BAN, moderator);
		expect(ran.job.result?.state).toBe('finished');
		expectCleanBulkBans(ran);
		expect(ran.sent.flatMap((call) => call.ids).sort()).toEqual([...aboveLow].sort());
		expect(raidIds.every(isBanned)).toBe(true);
		expect(stack.sandbox.state.bans.get(BigInt([...aboveLow][0]!))!.reason).toMatch(/^raid of 2026-07 \(/);
		const everyoneElse = (await members()).filter((member) => !raidIds.includes(member.id));
		expect(everyoneElse.some((member) => isBanned(member.id))).toBe(false);
		// Both runs wrote one journal: the second appended to the first's, so one /restore undoes both.
		expect(ran.job.id).toBe(firstBan);

		const rerun = await run('massban', BAN, moderator);
		expect(rerun.requests.filter((request) => request.route === BULK_BAN)).toEqual([]);
		expect(rerun.job.progress.snapshot().changed).toBe(0);
	});

	it('/stats after the ban says the banned are no longer members, and that none the job selects is still here', async () => {
		const answer = await commandAnswer(stack.control, await stack.control.invoke(stack.sandbox.guildId, moderator, 'stats', {}, stack.sandbox.channelId));
		expect(answer.text).toMatch(/^A member banned is no longer in the server, so the live server cannot count them\./);
		expect(answer.text).toMatch(/Still here and selected by the job: \*\*0\*\* of [\d,]+ members listed/);
		expect(answer.text).toMatch(/`\/restore dry_run:true` counts those it would undo/);
	});

	it('/restore unbans exactly the users the jobs banned, each by its owner worker, and leaves an older ban alone', async () => {
		const { job, requests } = await run('restore', {}, moderator);
		expect(job.mode).toBe('restore');
		expect(job.action.type).toBe('ban');
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);
		const unbans = requests.filter(UNBAN);
		expect(unbans.every((request) => request.status === 204)).toBe(true);
		expect(unbans.map((request) => request.targetId).sort()).toEqual([...raidIds].sort());
		const workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		for (const request of unbans) expect(workerOf.get(request.botUserId!)).toBe(workerIndexOf(request.targetId!, WORKERS));
		expect(raidIds.some(isBanned)).toBe(false);
		expect(isBanned(bannedBefore)).toBe(true);
		// The ban list was read by the workers, who hold Ban Members; the boss does not.
		const listing = requests.filter((request) => request.route === '/guilds/:id/bans' && request.method === 'GET');
		expect(listing.length).toBeGreaterThan(0);
		expect(listing.every((request) => workerOf.has(request.botUserId!))).toBe(true);
	});
});
