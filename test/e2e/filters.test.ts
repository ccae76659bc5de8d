import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { DISCORD_EPOCH } from '../../src/discord/snowflake.js';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import type { Job } from '../../src/jobs/Job.js';
import { type Stack, startStack } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
const PATCH_MEMBER = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === '/guilds/:id/members/:id';
const ROLE_ROUTE = (request: SandboxRequest): boolean => request.route === '/guilds/:id/members/:id/roles/:id';
const createdAt = (id: string): number => Number((BigInt(id) >> 22n) + BigInt(DISCORD_EPOCH));
const names = (member: ControlMember): string[] => [member.username, member.globalName, member.nick].filter((name): name is string => name !== null);

/**
 * Every filter, end to end: a dry run counts exactly the members the filter names (worked out
 * here from the sandbox's own data, independently of the engine), a run changes exactly them,
 * each by its owner worker, a rerun sends nothing and /restore undoes exactly what it did.
 */
describe('filters aim every action', () => {
	let stack: Stack;
	let ours: Set<string>;
	let workerOf: Map<string, number>;
	let medianJoin: number;
	let medianCreated: number;

	const members = (): Promise<ControlMember[]> => stack.control.members(stack.sandbox.guildId);

	/** The members the bots may rename (not ours, not the owner, below the workers) that `keep` keeps. */
	async function renamable(keep: (member: ControlMember) => boolean): Promise<Set<string>> {
		const roles = new Map((await stack.control.state()).roles.map((role) => [role.id, role]));
		const workers = [...roles.values()].find((role) => role.name === 'Massnick')!.position;
		return new Set(
			(await members())
				.filter((member) => !ours.has(member.id) && member.id !== stack.sandbox.ownerId)
				.filter((member) => Math.max(0, ...member.roles.map((id) => roles.get(id)?.position ?? 0)) < workers)
				.filter(keep)
				.map((member) => member.id),
		);
	}

	/** A dry run starts at once; any other job shows its preview first, and is started from it. */
	async function run(command: string, options: Record<string, unknown>) {
		const { lastSeq } = await stack.control.requests();
		let preview: string | undefined;
		let job: Job;
		if (options.dry_run === true) {
			job = await stack.runJob(command, options);
		} else {
			const previous = stack.massnick.jobs.last;
			const shown = await stack.preview(command, options);
			preview = (shown.message.embeds[0] as { description?: string } | undefined)?.description ?? '';
			await stack.press(shown.message.id, shown.start);
			await waitUntil(() => stack.massnick.jobs.last !== previous && stack.massnick.jobs.current === undefined, {
				what: `/${command} to end`,
				timeoutMs: 60_000,
			});
			job = stack.massnick.jobs.last!;
		}
		const { requests } = await stack.control.requests(lastSeq);
		return { job, requests, preview };
	}

	beforeAll(async () => {
		stack = await startStack({ members: 400, workers: WORKERS, settings: (config) => ({ ...config, preview: { timeoutSeconds: 60, skipBelowMembers: 0 } }) });
		workerOf = new Map(stack.massnick.fleet.workers.map((worker) => [worker.client.user!.id, worker.index]));
		ours = new Set([...workerOf.keys(), stack.massnick.boss.client.user!.id]);
		const everyone = (await members()).filter((member) => !ours.has(member.id));
		const joins = everyone.map((member) => Date.parse(member.joinedAt)).sort((a, b) => a - b);
		const created = everyone.map((member) => createdAt(member.id)).sort((a, b) => a - b);
		medianJoin = joins[Math.floor(joins.length / 2)]!;
		medianCreated = created[Math.floor(created.length / 2)]!;
	});

	afterAll(async () => {
		await stack?.close();
	});

	it('each filter alone: a dry run counts exactly its members and sends nothing', async () => {
		const iso = (ms: number): string => new Date(ms).toISOString();
		const cases: Array<[Record<string, unknown>, (member: ControlMember) => boolean]> = [
			[{ members: 'bots' }, (member) => member.bot],
			[{ members: 'humans' }, (member) => !member.bot],
			[{ no_roles: true }, (member) => member.roles.length === 0],
			[{ joined_before: iso(medianJoin) }, (member) => Date.parse(member.joinedAt) < medianJoin],
			[{ joined_after: iso(medianJoin) }, (member) => Date.parse(member.joinedAt) >= medianJoin],
			[{ created_before: iso(medianCreated) }, (member) => createdAt(member.id) < Math.ceil(medianCreated)],
			[{ created_after: iso(medianCreated) }, (member) => createdAt(member.id) >= medianCreated],
			[{ name_matches: 'AN' }, (member) => names(member).some((name) => name.toLowerCase().includes('an'))],
			[{ name_matches: '/^[a-m]/i' }, (member) => names(member).some((name) => /^[a-m]/i.test(name))],
		];
		for (const [options, keep] of cases) {
			const expected = await renamable(keep);
			const { job, requests } = await run('massnick', { name: 'Filtered {username}', dry_run: true, ...options });
			expect(job.progress.snapshot().changed, JSON.stringify(options)).toBe(expected.size);
			expect(expected.size, JSON.stringify(options)).toBeGreaterThan(0);
			expect(requests.filter(PATCH_MEMBER)).toEqual([]);
		}
	});

	it('filters together: a run renames exactly their members, each by its owner worker; a rerun sends nothing; /restore undoes exactly it', async () => {
		const before = new Map((await members()).map((member) => [member.id, member.nick]));
		const options = { members: 'humans', joined_after: '2016-01-01', name_matches: 'e' };
		const expected = await renamable(
			(member) => !member.bot && Date.parse(member.joinedAt) >= Date.parse('2016-01-01') && names(member).some((name) => name.toLowerCase().includes('e')),
		);
		expect(expected.size).toBeGreaterThan(20);

		const { job, requests, preview } = await run('massnick', { name: 'Aimed {username}', ...options });
		expect(job.result?.state).toBe('finished');
		// The preview cannot count by join date or name from Discord's counts: a range that holds the truth.
		expect(preview).toContain('every human who joined at or after 2016-01-01 00:00 UTC whose name matches “e”');
		const upTo = /will change \*\*up to ([\d,]+)\*\*/i.exec(preview ?? '');
		expect(upTo, preview).not.toBeNull();
		expect(Number(upTo![1]!.replaceAll(',', ''))).toBeGreaterThanOrEqual(job.progress.snapshot().changed);
		const patches = requests.filter(PATCH_MEMBER);
		expect(new Set(patches.map((request) => request.targetId!))).toEqual(expected);
		for (const patch of patches) expect(workerOf.get(patch.botUserId!)).toBe(workerIndexOf(patch.targetId!, WORKERS));
		expect(requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);

		// The journal keeps the filters, so a count of what is left after a crash aims the same.
		const journal = (await Journal.list(stack.dataDir, stack.sandbox.guildId)).find((summary) => summary.header.target === 'Aimed {username}')!;
		expect(journal.header.filters).toEqual({ members: 'humans', joinedAfter: Date.parse('2016-01-01'), nameMatches: 'e' });

		const rerun = await run('massnick', { name: 'Aimed {username}', ...options });
		expect(rerun.requests.filter(PATCH_MEMBER)).toEqual([]);

		const restore = await run('restore', {});
		expect(new Set(restore.requests.filter(PATCH_MEMBER).map((request) => request.targetId!))).toEqual(expected);
		for (const member of await members()) expect(member.nick, member.id).toBe(before.get(member.id));
	});

	it('a role job aimed at the other bots gives them the role and nobody else; /restore takes it back', async () => {
		const event = (await stack.control.state()).roles.find((role) => role.name === 'Event')!.id;
		const bots = new Set((await members()).filter((member) => member.bot && !ours.has(member.id) && !member.roles.includes(event)).map((member) => member.id));
		expect(bots.size).toBeGreaterThan(0);
		const { requests } = await run('massrole add', { role: event, members: 'bots' });
		expect(new Set(requests.filter(ROLE_ROUTE).map((request) => request.targetId!))).toEqual(bots);
		await run('restore', {});
		expect((await members()).filter((member) => bots.has(member.id) && member.roles.includes(event))).toEqual([]);
	});

	it('refuses a bad date or pattern before anything runs, naming the option', async () => {
		for (const [options, problem] of [
			[{ joined_before: 'yesterday' }, /joined_before: "yesterday" is not a date or a duration/],
			[{ name_matches: '/(a+/' }, /name_matches: .*missing closing \)/],
			[
				{ joined_after: '2024-01-02', joined_before: '2024-01-01' },
				/joined_after: \(2024-01-02T00:00:00.000Z\) is not before joined_before: .*give an earlier joined_after:/,
			],
		] as const) {
			const previous = stack.massnick.jobs.last;
			const id = await stack.control.invoke(
				stack.sandbox.guildId,
				stack.sandbox.ownerId,
				'massnick',
				{ name: 'Never {username}', ...options },
				stack.sandbox.channelId,
			);
			const answer = await stack.control.waitForResponses(id, 1);
			expect((answer.responses[0]!.body as { data: { content: string } }).data.content).toMatch(problem);
			expect(stack.massnick.jobs.last).toBe(previous);
		}
	});
});
