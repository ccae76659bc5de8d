import { join } from 'node:path';
import type { ControlInteraction, SandboxRequest } from '@massnick/discord-sandbox';
import { type APIGuild, type PermissionsString, PermissionsBitField, REST, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, commandAnswer } from '../support/commandAnswer.js';
import { type BulkBanCall, raidStack } from '../support/raidStack.js';
import { reportFigures } from '../support/reportFigures.js';
import { typedCountOf } from '../support/startFromPreview.js';
import type { Stack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 10;
const RAID = 2000;
const HOUR = 3_600_000;
/** The raid only: joined in the last quarter hour, an account made in the last day, the raid's name. */
const AIM = { joined_after: '15m', created_after: '1d', name_matches: '/free nitro/' };
const WORKERS_ALSO = ['ModerateMembers', 'KickMembers'] as const satisfies readonly PermissionsString[];

const REFUSED = (request: SandboxRequest): boolean => request.status === 403 || request.status === 429;
const UNBAN = (request: SandboxRequest): boolean => request.method === 'DELETE' && request.route === '/guilds/:id/bans/:id';
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const KICK = (request: SandboxRequest): boolean => request.method === 'DELETE' && request.route === '/guilds/:id/members/:id';
const targets = (requests: readonly SandboxRequest[]): string[] => requests.map((request) => request.targetId!).sort();
const sorted = (ids: readonly string[]): string[] => [...ids].sort();
/** The text of an answer: a reply's `data.content`, an edit's `content`. */
const contentOf = (interaction: ControlInteraction, at = 0): string => {
	const body = interaction.responses[at]?.body as { content?: string; data?: { content?: string } } | undefined;
	return body?.data?.content ?? body?.content ?? '';
};

/**
 * Issue 25's bar, at its size and in a moderator's order: a raid of 2,000 accounts among 20,000
 * members (and 500 real people joining in the same minutes), met by /lockdown, then /massban,
 * /masstimeout and /masskick aimed by join time, account age and name, each from a moderator who
 * is not the owner and holds exactly the permission its action needs. Each reaches every raid
 * account and nobody else, with no 403 and no 429; /restore undoes the ban and the timeout
 * exactly, and says the kick cannot be undone. A ban removes its members, as on Discord, and an
 * unbanned account does not come back by itself: the timeout and the kick meet a second wave.
 */
describe('the raid bar: 2,000 raid accounts among 20,000 members', () => {
	let stack: Stack;
	let calls: BulkBanCall[];
	let rest: REST;
	let guildId: string;
	let patrolRole: string;
	let moderator: string;
	let raidIds: string[];
	let realIds: string[];
	let oldMembers: string[];
	const figures: Record<string, number | string> = {};

	const isMember = (id: string): boolean => stack.sandbox.state.members.indexOf(BigInt(id)) !== -1;
	const isBanned = (id: string): boolean => stack.sandbox.state.bans.has(BigInt(id));
	/** Whoever is timed out now, by id. */
	const timedOut = (): string[] => {
		const { state } = stack.sandbox;
		return [...state.timeouts].filter(([, until]) => until > Date.now()).map(([index]) => state.members.idAt(index).toString());
	};
	const incidents = async (): Promise<APIGuild['incidents_data']> => ((await rest.get(Routes.guild(guildId))) as APIGuild).incidents_data;
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;
	const command = async (name: string, options: Record<string, unknown> = {}): Promise<Answer> =>
		commandAnswer(stack.control, await stack.control.invoke(guildId, moderator, name, options, stack.sandbox.channelId));

	/** The moderator's role holds exactly these, and the boss has seen it. */
	async function moderatorMay(...permissions: PermissionsString[]): Promise<void> {
		const bits = new PermissionsBitField(permissions).bitfield;
		await stack.control.editRole(guildId, patrolRole, { permissions });
		await waitUntil(() => stack.massnick.boss.guild.roles.cache.get(patrolRole)?.permissions.bitfield === bits, {
			what: `the boss to see the moderator hold ${permissions.join(', ')}`,
		});
	}

	/** Times a step and keeps its figure. */
	async function timed<T>(step: string, run: () => Promise<T>): Promise<T> {
		const started = performance.now();
		const result = await run();
		figures[`${step}Ms`] = Math.round(performance.now() - started);
		return result;
	}

	beforeAll(async () => {
		const started = performance.now();
		let roleId: (name: string) => string;
		({ stack, calls, roleId } = await raidStack({ members: 18_000, workers: WORKERS, timeScale: 100 }));
		guildId = stack.sandbox.guildId;
		rest = new REST({ api: stack.sandbox.apiUrl, retries: 0 }).setToken(stack.sandbox.bossToken);
		const workersRole = roleId('Massnick');
		const granted = new PermissionsBitField(BigInt(stack.sandbox.state.rolesById.get(workersRole)!.permissions)).add(...WORKERS_ALSO);
		await stack.control.editRole(guildId, workersRole, { permissions: granted.bitfield.toString() });
		await waitUntil(() => stack.massnick.fleet.workers.every((worker) => worker.hasPermission(new PermissionsBitField(WORKERS_ALSO).bitfield)), {
			what: 'the workers to hold Moderate Members and Kick Members',
		});
		// Just below the workers: every member without a role above it is within the moderator's reach.
		const workersAt = stack.sandbox.state.rolesById.get(workersRole)!.position;
		patrolRole = (await stack.control.createRole(guildId, { name: 'Raid patrol', position: workersAt })).id;
		const ours = new Set([...stack.massnick.fleet.workers.map((worker) => worker.client.user!.id), stack.massnick.boss.client.user!.id]);
		const plain = (await stack.control.members(guildId)).filter(
			(member) => !ours.has(member.id) && !member.bot && member.roles.length === 0 && member.id !== stack.sandbox.ownerId,
		);
		moderator = plain[0]!.id;
		oldMembers = plain.slice(1).map((member) => member.id);
		await stack.control.addMemberRole(guildId, moderator, patrolRole);
		({ raidIds, realIds } = await stack.control.stageRaid(guildId, { count: RAID, realJoiners: 500 }));
		figures.members = stack.sandbox.state.members.length;
		figures.setupMs = Math.round(performance.now() - started);
	}, 120_000);

	afterAll(async () => {
		reportFigures('raid bar', figures);
		await stack?.close();
	});

	it('1. /lockdown on from a moderator with only Manage Guild pauses invites', async () => {
		expect(stack.sandbox.state.members.length).toBeGreaterThanOrEqual(20_000);
		await moderatorMay('ManageGuild');
		const answer = await timed('lockdown', () => command('lockdown on', { hours: 6 }));
		expect(answer.text).toMatch(/Lockdown\*\* by .+: invites paused until/);
		const until = Date.parse((await incidents())!.invites_disabled_until!);
		expect(until).toBeGreaterThan(Date.now() + 5 * HOUR);
	});

	it('2. /massban from a moderator with Ban Members and Manage Guild bans every raid account and no other member, in calls of at most 200, with no 403 or 429; /restore unbans exactly them', async () => {
		await moderatorMay('BanMembers', 'ManageGuild');
		const { lastSeq } = await stack.control.requests();
		const job = await timed('massban', () => stack.runJob('massban', AIM, moderator));
		expect(job.result?.state).toBe('finished');
		const banning = await requestsSince(lastSeq);
		expect(banning.filter(REFUSED)).toEqual([]);
		expect(calls.every((call) => call.ids.length <= 200)).toBe(true);
		expect(calls.length).toBeGreaterThanOrEqual(RAID / 200);
		expect(sorted(calls.flatMap((call) => call.ids))).toEqual(sorted(raidIds));
		expect(stack.sandbox.state.bans.size).toBe(RAID);
		expect(raidIds.every(isBanned)).toBe(true);
		for (const id of [...realIds, ...oldMembers, moderator]) expect(isMember(id) && !isBanned(id), id).toBe(true);
		figures.bulkBanCalls = calls.length;
		figures.largestBulkBan = Math.max(...calls.map((call) => call.ids.length));

		const afterBan = banning.at(-1)!.seq;
		const restore = await timed('unban', () => stack.runJob('restore', {}, moderator));
		expect([restore.mode, restore.result?.state]).toEqual(['restore', 'finished']);
		const undo = await requestsSince(afterBan);
		expect(undo.filter(REFUSED)).toEqual([]);
		expect(targets(undo.filter(UNBAN))).toEqual(sorted(raidIds));
		expect(stack.sandbox.state.bans.size).toBe(0);
		figures.unbanCalls = undo.filter(UNBAN).length;
	}, 120_000);

	it('3. /masstimeout from a moderator with only Moderate Members times out every raid account of the second wave and nobody else, with no 403 or 429; /restore lifts exactly them', async () => {
		// The banned accounts left the guild and stay out once unbanned, as on Discord: a second wave
		// of the same shape joins (the sandbox stages joins; it does not hold them back in a lockdown).
		expect(raidIds.some(isMember)).toBe(false);
		({ raidIds } = await stack.control.stageRaid(guildId, { count: RAID, seed: 2 }));
		expect(raidIds.every(isMember)).toBe(true);
		await moderatorMay('ModerateMembers');
		const { lastSeq } = await stack.control.requests();
		const job = await timed('masstimeout', () => stack.runJob('masstimeout', { duration: '1h', ...AIM }, moderator));
		expect(job.result?.state).toBe('finished');
		const timing = await requestsSince(lastSeq);
		expect(timing.filter(REFUSED)).toEqual([]);
		expect(targets(timing.filter(PATCH_MEMBER))).toEqual(sorted(raidIds));
		expect(sorted(timedOut())).toEqual(sorted(raidIds));
		figures.timeoutCalls = timing.filter(PATCH_MEMBER).length;

		const afterTimeout = timing.at(-1)!.seq;
		const restore = await timed('lift', () => stack.runJob('restore', {}, moderator));
		expect([restore.mode, restore.result?.state]).toEqual(['restore', 'finished']);
		const undo = await requestsSince(afterTimeout);
		expect(undo.filter(REFUSED)).toEqual([]);
		expect(targets(undo.filter(PATCH_MEMBER))).toEqual(sorted(raidIds));
		expect(timedOut()).toEqual([]);
		figures.liftCalls = undo.filter(PATCH_MEMBER).length;
	}, 120_000);

	it('4. /masskick from a moderator with only Kick Members: the preview says it cannot be undone, a wrong count kicks nobody, the right one kicks every raid account and nobody else; /restore says it cannot be undone, naming its journal', async () => {
		await moderatorMay('KickMembers');
		const { lastSeq } = await stack.control.requests();
		const preview = await command('masskick', AIM);
		expect(preview.text).toContain('A kick cannot be undone: kicked members must be invited back.');
		expect(typedCountOf(preview.text)).toBe(RAID);
		const start = preview.buttons.find((customId) => customId.endsWith(':start'))!;
		/** Start, answered with the modal that asks for the count. */
		const pressStart = async (): Promise<string> => {
			const press = await stack.control.pressButton(guildId, moderator, stack.sandbox.channelId, preview.messageId!, start);
			const modal = await stack.control.waitForModal(press);
			expect(modal.parts.find((part) => part.kind === 'label')?.input).toMatchObject({ customId: 'count', required: true });
			return press;
		};

		const previous = stack.massnick.jobs.last;
		const wrong = await stack.control.waitForResponses(await stack.control.submitModal(await pressStart(), { count: String(RAID - 1) }), 1);
		expect(contentOf(wrong)).toContain(`You typed “${RAID - 1}”, but the preview shows **${RAID.toLocaleString('en-US')}** members to be kicked: nothing ran.`);
		expect(stack.massnick.jobs.last).toBe(previous);
		expect((await requestsSince(lastSeq)).filter(KICK)).toEqual([]);

		const membersBefore = [...stack.sandbox.state.members.indices()].length;
		await timed('masskick', async () => {
			await stack.control.waitForResponses(await stack.control.submitModal(await pressStart(), { count: String(RAID) }), 1);
			await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, {
				what: 'the kick to end',
				timeoutMs: 120_000,
			});
		});
		const kick = stack.massnick.jobs.last!;
		expect([kick.action.type, kick.result?.state]).toEqual(['kick', 'finished']);
		const kicking = await requestsSince(lastSeq);
		expect(kicking.filter(REFUSED)).toEqual([]);
		expect(targets(kicking.filter(KICK))).toEqual(sorted(raidIds));
		expect(raidIds.some(isMember)).toBe(false);
		expect([...stack.sandbox.state.members.indices()].length).toBe(membersBefore - RAID);
		for (const id of [...realIds, ...oldMembers, moderator]) expect(isMember(id), id).toBe(true);
		figures.kickCalls = kicking.filter(KICK).length;

		const afterKick = kicking.at(-1)!.seq;
		const id = await stack.control.invoke(guildId, moderator, 'restore', {}, stack.sandbox.channelId);
		const text = contentOf(await stack.control.waitForResponses(id, 2), 1);
		expect(text).toContain('cannot be undone. A kick cannot be undone: kicked members must be invited back.');
		expect(text).toContain(`Its journal keeps the ${RAID.toLocaleString('en-US')} members it kicked`);
		expect(text).toContain(`each written down before its request went out: ${join(stack.dataDir, guildId, `${kick.id}.jsonl`)}.`);
		expect(text).toContain('Nothing was changed. No job before it is left to undo.');
		expect((await requestsSince(afterKick)).filter((request) => request.method !== 'GET' && request.route.startsWith('/guilds/'))).toEqual([]);
	}, 120_000);

	it('5. /lockdown off from a moderator with only Manage Guild opens invites again', async () => {
		await moderatorMay('ManageGuild');
		const answer = await command('lockdown off');
		expect(answer.text).toMatch(/Lockdown lifted\*\* by .+: invites open/);
		expect(await incidents()).toEqual({ invites_disabled_until: null, dms_disabled_until: null });
	});
});
