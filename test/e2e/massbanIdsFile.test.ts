import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REST } from '@discordjs/rest';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import { RESTJSONErrorCodes, Routes } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { commandAnswer } from '../support/commandAnswer.js';
import { type BulkBanCall, raidStack } from '../support/raidStack.js';
import { startRun } from '../support/spawnRun.js';
import type { Sandbox, Stack } from '../support/startStack.js';
import { startFromPreview } from '../support/startFromPreview.js';
import { startRule } from '../support/startRule.js';
import { waitUntil } from '../support/waitUntil.js';

const BULK_BAN = '/guilds/:id/bulk-ban';
const UNBAN = (request: SandboxRequest): boolean => request.method === 'DELETE' && request.route === '/guilds/:id/bans/:id';

/** Members the workers may ban: not the owner, not our bots, below the workers' role. */
function bannableIds(sandbox: Sandbox): string[] {
	const { state } = sandbox;
	const ours = new Set(state.apps.map((app) => app.memberIndex));
	const top = state.highestPosition(state.apps[0]!.memberIndex);
	return [...state.members.indices()]
		.filter((index) => !state.isOwner(index) && !ours.has(index) && state.highestPosition(index) < top)
		.map((index) => state.members.idAt(index).toString());
}

const isBanned = (sandbox: Sandbox, id: string): boolean => sandbox.state.bans.has(BigInt(id));

/** The status messages' descriptions in the channel, newest last. */
async function statusTexts(stack: Stack): Promise<string[]> {
	const messages = await stack.control.messages(stack.sandbox.channelId);
	return messages.flatMap((message) =>
		message.embeds.map((embed) => `${(embed as { title?: string }).title ?? ''}\n${(embed as { description?: string }).description ?? ''}`),
	);
}

/**
 * A file of 500 user ids for /massban: 450 members, 46 users who left the server, 2 who left and
 * were banned by hand before, the owner and the boss bot. The job bans exactly the 450 and the 46,
 * the users who left in calls of their own after the members, each by its owner worker; a rerun
 * sends nothing; /restore unbans exactly those 496 and leaves the older bans alone.
 */
describe('/massban with a file of ids bans the users who left too', () => {
	const WORKERS = 4;
	let stack: Stack;
	let calls: BulkBanCall[];
	let chosen: string[];
	let leavers: string[];
	let bannedBefore: string[];
	let csv: string;

	/**
	 * Previews `command`, starts it as its member would (Start, and the count typed when the preview
	 * asks for it), and waits for the job it starts to end.
	 */
	async function previewAndRun(command: string, options: Record<string, unknown>) {
		const { lastSeq } = await stack.control.requests();
		const before = calls.length;
		const previous = stack.massnick.jobs.last;
		const shown = await stack.preview(command, options);
		const typed = await startFromPreview(stack.control, stack.sandbox, stack.sandbox.ownerId, await commandAnswer(stack.control, shown.interactionId));
		await waitUntil(
			() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined && stack.massnick.jobs.last?.result !== undefined,
			{
				what: `/${command} to end`,
				timeoutMs: 60_000,
			},
		);
		const { requests } = await stack.control.requests(lastSeq);
		const preview = (shown.message.embeds[0] as { description?: string }).description ?? '';
		return { job: stack.massnick.jobs.last!, preview, typed, requests, sent: calls.slice(before) };
	}

	beforeAll(async () => {
		({ stack, calls } = await raidStack({
			members: 1000,
			workers: WORKERS,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		}));
		const { sandbox } = stack;
		const bannable = bannableIds(sandbox);
		chosen = bannable.filter((_, i) => i % 2 === 0).slice(0, 450);
		const others = bannable.filter((_, i) => i % 2 === 1);
		leavers = others.slice(0, 46);
		bannedBefore = others.slice(46, 48);
		expect([chosen.length, leavers.length, bannedBefore.length]).toEqual([450, 46, 2]);
		for (const id of leavers) await stack.control.removeMember(sandbox.guildId, id);
		const hand = new REST({ api: sandbox.apiUrl, retries: 0 }).setToken(sandbox.workerTokens[0]!);
		for (const id of bannedBefore) await hand.put(Routes.guildBan(sandbox.guildId, id), { body: {} });
		const listed = [...chosen, ...leavers, ...bannedBefore, sandbox.ownerId, sandbox.bossId];
		csv = ['User ID,Username', ...listed.map((id, i) => `${id},user ${i}`)].join('\r\n');
	}, 120_000);

	afterAll(async () => {
		await stack?.close();
	});

	it('bans exactly the listed members and the listed users who left, those in calls of their own; the preview counts them apart', async () => {
		const { sandbox } = stack;
		const bansBefore = sandbox.state.bans.size;
		const { job, preview, typed, requests, sent } = await previewAndRun('massban', { ids_file: { filename: 'raid.csv', content: csv } });
		expect(preview).toContain('The 500 listed user ids, looked up: 452 are members of the server. Of the members: 450 to change');
		expect(preview).toContain('**48 users who are not members will be banned** too');
		// Counted exactly for the typed count: the users who left are banned too, those banned already are not.
		expect(typed).toBe(496);
		expect(job.result?.state).toBe('finished');

		const expected = new Set([...chosen, ...leavers]);
		expect(new Set(sent.flatMap((call) => call.ids))).toEqual(expected);
		expect(sent.flatMap((call) => call.ids)).toHaveLength(expected.size);
		const left = new Set(leavers);
		for (const call of sent) {
			expect(call.ids.length).toBeLessThanOrEqual(200);
			// A call is all members or all users who left, never both.
			expect(new Set(call.ids.map((id) => left.has(id))).size).toBe(1);
			for (const id of call.ids) expect(workerIndexOf(id, WORKERS), id).toBe(call.worker);
		}
		// The members' calls all went before the first call for users who left.
		const firstLeaverCall = sent.findIndex((call) => left.has(call.ids[0]!));
		expect(sent.slice(firstLeaverCall).every((call) => left.has(call.ids[0]!))).toBe(true);
		expect(requests.filter((request) => request.route === BULK_BAN).every((request) => request.status === 200)).toBe(true);
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);

		for (const id of [...expected, ...bannedBefore]) expect(isBanned(sandbox, id), id).toBe(true);
		expect(sandbox.state.bans.size).toBe(bansBefore + expected.size);
		expect(isBanned(sandbox, sandbox.ownerId) || isBanned(sandbox, sandbox.bossId)).toBe(false);
		expect(job.nonMembers).toEqual({ handed: 48, changed: 46, alreadyDone: 2, leftAlone: 0, failed: 0, limited: 0 });
		const snapshot = job.progress.snapshot();
		expect(snapshot).toMatchObject({ changed: 496, alreadyDone: 2, cant: 1, failed: 0 });
		// Left alone: the boss, and every member not listed.
		expect(snapshot.skipped).toBe(snapshot.total - 499);
		await waitUntil(
			async () =>
				(await statusTexts(stack)).some(
					(text) =>
						text.includes('· finished') &&
						text.includes(
							'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server (they left, or never joined): 46 of them banned, 2 already done.',
						),
				),
			{ what: 'the status to say what became of the users who are not members' },
		);
	});

	it('a rerun finds every listed user banned and sends no ban', async () => {
		const { job, sent, requests, typed } = await previewAndRun('massban', { ids_file: { filename: 'raid.csv', content: csv } });
		expect(job.result?.state).toBe('finished');
		expect(typed).toBeUndefined();
		expect(sent).toEqual([]);
		expect(requests.filter((request) => request.route === BULK_BAN)).toEqual([]);
		// The banned members are no members now: all 498 are found done in the ban list.
		expect(job.nonMembers).toMatchObject({ handed: 498, changed: 0, alreadyDone: 498, failed: 0 });
	});

	it('/stats counts the listed ids no member has as banned, and none of the job’s as still here', async () => {
		const answer = await commandAnswer(
			stack.control,
			await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'stats', {}, stack.sandbox.channelId),
		);
		expect(answer.text).toMatch(/Still here and selected by the job: \*\*0\*\* of [\d,]+ members listed/);
		expect(answer.text).toContain('Of the listed ids no member has: **498** banned, 0 not yet.');
	});

	it('/restore unbans exactly the users the job banned, users who left included, and leaves the older bans alone', async () => {
		const { job, requests } = await previewAndRun('restore', {});
		expect(job.mode).toBe('restore');
		expect(job.result?.state).toBe('finished');
		const unbans = requests.filter(UNBAN);
		expect(unbans.every((request) => request.status === 204)).toBe(true);
		expect(new Set(unbans.map((request) => request.targetId!))).toEqual(new Set([...chosen, ...leavers]));
		expect(unbans).toHaveLength(496);
		const workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		for (const request of unbans) expect(workerOf.get(request.botUserId!)).toBe(workerIndexOf(request.targetId!, WORKERS));
		for (const id of [...chosen, ...leavers]) expect(isBanned(stack.sandbox, id), id).toBe(false);
		for (const id of bannedBefore) expect(isBanned(stack.sandbox, id), id).toBe(true);
	});
});

/**
 * Discord's limit on bans of users who are not members, at 5 in the sandbox: a file of 20 members
 * and 30 users who left (15 of each worker). The members are all banned; the users who left, 5
 * until Discord answers 30035, then none: the job says so, what was not done and what to do, and
 * `massnick run massban` says it too and exits 1.
 */
describe('/massban stops banning users who are not members when Discord answers 30035', () => {
	const WORKERS = 2;
	const LIMIT = 5;
	let stack: Stack;
	let members: string[];
	let leavers: string[];
	let content: string;
	let dataDir: string;

	beforeAll(async () => {
		({ stack } = await raidStack({ members: 300, workers: WORKERS, rateLimits: { nonMemberBans: { limit: LIMIT, windowMs: 24 * 3600_000 } } }));
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-ban-limit-'));
		const bannable = bannableIds(stack.sandbox);
		members = bannable.slice(0, 20);
		const rest = bannable.slice(20);
		leavers = [0, 1].flatMap((worker) => rest.filter((id) => workerIndexOf(id, WORKERS) === worker).slice(0, 15));
		for (const id of leavers) await stack.control.removeMember(stack.sandbox.guildId, id);
		content = `${[...members, ...leavers].join('\n')}\n`;
	}, 120_000);

	afterAll(async () => {
		await stack?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('bans every member and the users who left up to the limit, then stops on them, saying why and what to do', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massban', { ids_file: { filename: 'raid.txt', content } });
		expect(job.result?.state).toBe('finished');
		for (const id of members) expect(isBanned(stack.sandbox, id), id).toBe(true);
		const bannedLeavers = leavers.filter((id) => isBanned(stack.sandbox, id));
		expect(bannedLeavers).toHaveLength(LIMIT);
		const refused = (await stack.control.requests(lastSeq)).requests.filter((request) => request.route === BULK_BAN && request.status !== 200);
		expect(refused.map((request) => [request.status, request.code])).toEqual([[400, RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded]]);
		const counts = job.nonMembers!;
		expect(counts).toMatchObject({ handed: 30, changed: LIMIT, alreadyDone: 0, failed: 30 - LIMIT, limited: 15 });
		expect(counts.stop).toMatchObject({ code: ErrorCodes.NonMemberBanLimit });
		expect(job.progress.snapshot()).toMatchObject({ changed: 20 + LIMIT, failed: 30 - LIMIT });
		await waitUntil(
			async () =>
				(await statusTexts(stack)).some(
					(text) =>
						text.includes('· finished') &&
						text.includes(
							'30 of them are not members of the server (they left, or never joined): 5 of them banned, 25 failed. ⚠️ Discord refused to ban more users who are not members (30035)',
						) &&
						text.includes('run the same command again later'),
				),
			{ what: 'the status to say Discord stopped the bans of users who are not members' },
		);
	});

	it('massnick run massban --ids-file says the same and exits 1; what was banned is found done', async () => {
		await stack.massnick.stop();
		const path = join(dataDir, 'raid.txt');
		await writeFile(path, content);
		const { lastSeq } = await stack.control.requests();
		const run = startRun(stack.sandbox, dataDir, ['massban', '--ids-file', path]);
		expect(await run.exited, run.stderr()).toBe(1);
		const bulkBans = (await stack.control.requests(lastSeq)).requests.filter((request) => request.route === BULK_BAN);
		expect(bulkBans.map((request) => request.code)).toEqual(bulkBans.map(() => RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded));
		expect(run.stderr()).toContain('50 of them are not members of the server (they left, or never joined): 0 of them banned, 25 already done, 25 failed.');
		expect(run.stderr()).toContain('Discord refused to ban more users who are not members (30035)');
		expect(leavers.filter((id) => isBanned(stack.sandbox, id))).toHaveLength(LIMIT);
	}, 120_000);
});

/**
 * A standing `/massban` from a file of ids: the users in it who left are banned once its members
 * are, before it follows joins, not when it ends (a rule ended by /cancel never reached them, and
 * one that meets Discord's limit on them bans the rest when they come back).
 */
describe('/massban ids_file keep bans the listed users who left before it follows joins', () => {
	const WORKERS = 2;
	let stack: Stack;

	afterAll(async () => {
		await stack?.close();
	});

	it('bans the members and the users who left while the rule runs, and /cancel leaves them banned', async () => {
		({ stack } = await raidStack({
			members: 200,
			workers: WORKERS,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		}));
		const bannable = bannableIds(stack.sandbox);
		const members = bannable.slice(0, 10);
		const leavers = bannable.slice(10, 22);
		for (const id of leavers) await stack.control.removeMember(stack.sandbox.guildId, id);
		const rule = await startRule(stack, 'massban', { ids_file: { filename: 'raid.txt', content: `${[...members, ...leavers].join('\n')}\n` } });
		expect(rule.result).toBeUndefined();
		for (const id of [...members, ...leavers]) expect(isBanned(stack.sandbox, id), id).toBe(true);
		expect(rule.nonMembers).toMatchObject({ handed: 12, changed: 12, failed: 0 });
		// Its sweep is over, the users who left included: the status no longer waits on a listing.
		expect(rule.progress.snapshot().listingDone).toBe(true);

		const cancel = await commandAnswer(
			stack.control,
			await stack.control.invoke(stack.sandbox.guildId, stack.sandbox.ownerId, 'cancel', { rule: rule.id }, stack.sandbox.channelId),
		);
		expect(cancel.text).toContain(rule.id);
		expect((await rule.ended()).state).toBe('cancelled');
		for (const id of leavers) expect(isBanned(stack.sandbox, id), id).toBe(true);
	});
});
