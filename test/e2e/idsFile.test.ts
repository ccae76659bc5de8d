import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlMember, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import type { Job } from '../../src/jobs/Job.js';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { commandAnswer } from '../support/commandAnswer.js';
import { startRun } from '../support/spawnRun.js';
import { type Sandbox, type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const MEMBER_ROUTES = (request: SandboxRequest): boolean => request.route.startsWith('/guilds/:id/members/:id') && request.method !== 'GET';

/** Members massnick may rename: not the owner, not our bots, below the workers' role. */
function renamableIds(sandbox: Sandbox): string[] {
	const { state } = sandbox;
	const ours = new Set(state.apps.map((app) => app.memberIndex));
	const top = state.highestPosition(state.apps[0]!.memberIndex);
	return [...state.members.indices()]
		.filter((index) => !state.isOwner(index) && !ours.has(index) && state.highestPosition(index) < top)
		.map((index) => state.members.idAt(index).toString());
}

/** Ids of users who are not members: valid snowflakes next to members' ids, checked against the guild. */
function strangerIds(sandbox: Sandbox, count: number): string[] {
	const ids: string[] = [];
	for (const index of sandbox.state.members.indices()) {
		const id = (sandbox.state.members.idAt(index) + 1n).toString();
		if (sandbox.state.memberIndex(sandbox.guildId, id) === -1) ids.push(id);
		if (ids.length === count) break;
	}
	return ids;
}

/**
 * A file of 500 user ids, as a moderation bot exports it (a CSV with a header, a mention, a
 * repeated id), of 450 members to rename, the owner, the boss bot and 48 users who are not
 * members: `/massnick … ids_file:` renames exactly the 450, and `/restore` undoes exactly that.
 */
describe('ids_file limits a slash command to the listed members', () => {
	let stack: Stack;
	let listed: string[];
	let expected: Set<string>;
	let strangers: string[];
	let csv: string;

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);
	const requestsSince = async (seq: number): Promise<SandboxRequest[]> => (await stack.control.requests(seq)).requests;

	beforeAll(async () => {
		stack = await startStack({
			members: 1000,
			workers: WORKERS,
			settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }),
		});
		const { sandbox } = stack;
		const chosen = renamableIds(sandbox)
			.filter((_, i) => i % 2 === 0)
			.slice(0, 450);
		expect(chosen).toHaveLength(450);
		expected = new Set(chosen);
		strangers = strangerIds(sandbox, 48);
		listed = [...chosen, sandbox.ownerId, sandbox.bossId, ...strangers];
		const rows = listed.map((id, i) => (i === 3 ? `"<@${id}>",someone` : `${id},user ${i}`));
		csv = ['User ID,Username', ...rows, `${chosen[0]},repeated`].join('\r\n');
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('a dry run counts exactly the listed members it would change, and sends nothing', async () => {
		const { lastSeq } = await stack.control.requests();
		const job = await stack.runJob('massnick', { name: 'Listed {username}', dry_run: true, ids_file: { filename: 'raid.csv', content: csv } });
		expect(job.progress.snapshot().changed).toBe(450);
		expect(job.listedIds?.notMembers).toBe(48);
		expect((await requestsSince(lastSeq)).filter(MEMBER_ROUTES)).toEqual([]);
	});

	it('renames exactly the listed members, each by its owner worker, says how many listed ids are not members, and /restore undoes exactly it', async () => {
		const before = new Map((await members()).map((member) => [member.id, member.nick]));
		const { lastSeq } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		const shown = await stack.preview('massnick', { name: 'Listed {username}', ids_file: { filename: 'raid.csv', content: csv } });
		const preview = (shown.message.embeds[0] as { description?: string }).description ?? '';
		expect(preview).toContain('for every member among the 500 user ids in “raid.csv”');
		expect(preview).toContain(
			'The 500 listed user ids, looked up: 452 are members of the server, 48 are not (nothing is sent for them). Of the members: 450 to change',
		);
		expect(preview).toMatch(/will change \*\*up to 500\*\*/i);
		// The preview is private: only its member sees the file's ids at work.
		expect(shown.message.flags & 64).toBe(64);

		await stack.press(shown.message.id, shown.start);
		await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, { what: 'the job to end', timeoutMs: 60_000 });
		const job: Job = stack.massnick.jobs.last!;
		expect(job.result?.state).toBe('finished');
		const requests = await requestsSince(lastSeq);
		const patches = requests.filter(PATCH_MEMBER);
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(expected);
		expect(patches).toHaveLength(450);
		const workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		for (const patch of patches) expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, WORKERS));
		expect(requests.filter((request) => request.status >= 400)).toEqual([]);
		for (const member of await members()) {
			if (expected.has(member.id)) expect(member.nick).toBe(`Listed ${member.username}`);
			else expect(member.nick, member.id).toBe(before.get(member.id));
		}
		expect(job.progress.snapshot()).toMatchObject({ changed: 450, cant: 1 });

		const notMembers = 'Only the 500 user ids in “raid.csv”: 48 of them are not members of the server, so nothing is sent for them.';
		await waitUntil(
			async () =>
				(await stack.control.messages(stack.sandbox.channelId)).some((message) =>
					message.embeds.some((embed) => {
						const { title = '', description = '' } = embed as { title?: string; description?: string };
						return title.includes('· finished') && description.includes(notMembers);
					}),
				),
			{ what: 'the live status to say how many listed ids are not members' },
		);
		// The journal keeps the list, so a resumed job aims at the same members.
		const journal = (await Journal.list(stack.dataDir, stack.sandbox.guildId)).find((summary) => summary.header.jobId === job.id)!;
		expect(journal.header.filters).toEqual({ userIdsFrom: 'raid.csv', userIds: [...listed].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)) });

		const { lastSeq: beforeRestore } = await stack.control.requests();
		const restore = await stack.preview('restore', {});
		await stack.press(restore.message.id, restore.start);
		await waitUntil(
			() => stack.massnick.jobs.current === undefined && stack.massnick.jobs.last?.mode === 'restore' && stack.massnick.jobs.last.result !== undefined,
			{
				what: 'the restore to end',
				timeoutMs: 60_000,
			},
		);
		expect(new Set((await requestsSince(beforeRestore)).filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(expected);
		for (const member of await members()) expect(member.nick, member.id).toBe(before.get(member.id));
	});

	it('a file with entries that are not ids is refused privately, naming them, and nothing runs', async () => {
		const { lastSeq } = await stack.control.requests();
		const previous = stack.massnick.jobs.last;
		const content = `${listed[0]}\nalice\n${listed[1]}\n12345\n`;
		const id = await stack.control.invoke(
			stack.sandbox.guildId,
			stack.sandbox.ownerId,
			'massnick',
			{ name: 'Never', ids_file: { filename: 'bad.txt', content } },
			stack.sandbox.channelId,
		);
		const answer = await commandAnswer(stack.control, id);
		expect(answer.ephemeral).toBe(true);
		expect(answer.text).toContain('ids_file: bad.txt has 2 entries that are not user ids: line 2 “alice”, line 4 “12345”.');
		expect(answer.text).toContain('17 to 20 digits');
		expect(answer.buttons).toEqual([]);
		expect(stack.massnick.jobs.last).toBe(previous);
		expect((await requestsSince(lastSeq)).filter(MEMBER_ROUTES)).toEqual([]);
	});

	it('a file over 4 MB is refused from its size, without downloading it', async () => {
		const previous = stack.massnick.jobs.last;
		const content = `${listed[0]}\n`.repeat(Math.ceil((4 * 1024 * 1024 + 1) / 19));
		const id = await stack.control.invoke(
			stack.sandbox.guildId,
			stack.sandbox.ownerId,
			'clearnicks',
			{ ids_file: { filename: 'huge.txt', content } },
			stack.sandbox.channelId,
		);
		const answer = await commandAnswer(stack.control, id);
		expect(answer.text).toMatch(/^ids_file: huge\.txt is 4\.0 MB; a file of ids may be at most 4 MB\. .*split the file and run one job per part\./);
		expect((await stack.control.attachments()).find((file) => file.filename === 'huge.txt')).toMatchObject({ downloads: 0 });
		expect(stack.massnick.jobs.last).toBe(previous);
	});
});

describe('massnick run --ids-file reads the file from disk', () => {
	let sandbox: Sandbox;
	let dataDir: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 300, workers: 2, seed: 23, timeScale: 100 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-ids-'));
	});

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('renames exactly the listed members and says how many listed ids are not members; a bad file exits 2 before connecting', async () => {
		const control = new SandboxControl(sandbox.controlUrl);
		const chosen = renamableIds(sandbox).slice(0, 40);
		const strangers = strangerIds(sandbox, 10);
		const path = join(dataDir, 'ids.txt');
		await writeFile(path, `# from the mod log\n${[...chosen, ...strangers].join('\n')}\n`);
		const { lastSeq } = await control.requests();
		const run = startRun(sandbox, dataDir, ['massnick', '--name', 'Run {id}', '--ids-file', path]);
		expect(await run.exited, run.stderr()).toBe(0);
		const patches = (await control.requests(lastSeq)).requests.filter(PATCH_MEMBER);
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(new Set(chosen));
		expect(run.stderr()).toContain('for every member among the 50 user ids in “ids.txt”');
		expect(run.stderr()).toContain('Only the 50 user ids in “ids.txt”: 10 of them are not members of the server, so nothing is sent for them.');

		const bad = join(dataDir, 'bad.txt');
		await writeFile(bad, `${chosen[0]}\nbob\n`);
		const { lastSeq: beforeBad } = await control.requests();
		const refused = startRun(sandbox, dataDir, ['clearnicks', `--ids-file=${bad}`]);
		expect(await refused.exited).toBe(2);
		expect(refused.stderr()).toContain('massnick run: --ids-file bad.txt has an entry that is not a user id: line 2 “bob”.');
		expect((await control.requests(beforeBad)).requests).toEqual([]);
	});
});
