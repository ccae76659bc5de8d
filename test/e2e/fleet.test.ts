import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeableMembers, renamableMembers, SandboxControl, startSandbox } from '@massnick/discord-sandbox';
import { loadConfig } from '../../src/config/loadConfig.js';
import { parseNicknameAction } from '../../src/actions/nickname/parseNicknameAction.js';
import { ErrorCodes, JobError } from '../../src/errors.js';
import { OPERATOR } from '../../src/jobs/RequesterRank.js';
import { type Massnick, startMassnick } from '../../src/startMassnick.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { memberPatches, renamedTwice } from '../../bench/soak/invariants.js';
import { reportFigures } from '../support/reportFigures.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const K = 3;
const NAME = 'Fleet {username}';
/** `workers.maxInFlight` of test/support/config: what one worker can have on the wire at a kill. */
const MAX_IN_FLIGHT = 10;

/**
 * A fleet split over K processes, as a Kubernetes Indexed Job runs it: each pod is started with
 * `JOB_COMPLETION_INDEX`, holds that one worker, has no boss, lists the guild with the boss's
 * token (REST only) and keeps its journal on a volume of its own. Kubernetes restarts a pod
 * that dies with the same index and the same volume.
 */
describe('a fleet of K processes, one worker each, without the boss', () => {
	let sandbox: Sandbox | undefined;
	let boss: Massnick | undefined;
	const processes: BotProcess[] = [];
	/** The journal volume: one folder per pod (`worker-<index>`), as the Job's subPathExpr lays it out. */
	let volume = '';
	const dataDirs: string[] = [];

	afterAll(async () => {
		for (const process of processes) if (process.child.exitCode === null) process.child.kill('SIGKILL');
		await boss?.stop();
		await sandbox?.close();
		if (volume) await rm(volume, { recursive: true, force: true });
	});

	/** Pod `index` of the Indexed Job, on its own volume, running one job to its end. */
	const pod = async (index: number, ...job: string[]): Promise<BotProcess> => {
		const started = await spawnBot(sandbox!, dataDirs[index]!, {
			command: [process.execPath, '--import', 'tsx', 'test/support/fleetProcess.ts', ...job],
			env: {
				BOSS_TOKEN: undefined,
				// The same Secret in every pod: each takes the token at its index.
				WORKER_TOKENS: sandbox!.workerTokens.join(','),
				WORKER_COUNT: String(K),
				JOB_COMPLETION_INDEX: String(index),
				LISTER_TOKEN: sandbox!.bossToken,
			},
			readyText: 'fleet job started',
		});
		processes.push(started);
		return started;
	};

	it('renames the guild once, each member by its owner worker, survives a pod killed and restarted, and restores every original per index', async () => {
		sandbox = await startSandbox({ members: 1000, workers: K, seed: 31, timeScale: 50 });
		const control = new SandboxControl(sandbox.controlUrl);
		volume = await mkdtemp(join(tmpdir(), 'massnick-fleet-'));
		for (let index = 0; index < K; index++) {
			dataDirs.push(join(volume, `worker-${index}`));
			await mkdir(dataDirs[index]!);
		}
		const before = new Map((await control.members(sandbox.guildId)).map((member) => [member.id, member.nick]));
		const renamable = renamableMembers(sandbox);
		const ownerToken = (memberId: string): string => sandbox!.workerIds[workerIndexOf(memberId, K)]!;

		// The boss, as deploy/kubernetes/boss.yaml runs it: no worker, every token read once, the
		// journal volume mounted read-only.
		boss = await startMassnick(
			loadConfig({
				env: {
					BOSS_TOKEN: sandbox.bossToken,
					WORKER_TOKENS: sandbox.workerTokens.join(','),
					GUILD_ID: sandbox.guildId,
					DISCORD_API_URL: sandbox.apiUrl,
					WORKER_COUNT: String(K),
					WORKER_IDS: 'none',
					FLEET_JOURNALS_DIR: volume,
					MASSNICK_DATA_DIR: join(volume, 'boss'),
				},
				configDir: 'test/support/config',
				dotenvPath: false,
			}),
			pino({ level: 'silent' }),
		);
		const channelId = sandbox.state.guild.channel.id;
		const invoke = async (command: string, options: Record<string, unknown> = {}) => {
			const id = await control.invoke(sandbox!.guildId, sandbox!.ownerId, command, options, channelId);
			return ((await control.waitForResponses(id, 2)).responses.at(-1)!.body as { content?: string }).content ?? '';
		};
		/** /status, then the fleet's status message once its count from the live guild has ended. */
		const fleetStatus = async (reply: RegExp) => {
			const posted = (await control.messages(channelId)).length;
			expect(await invoke('status')).toMatch(reply);
			type Embed = { title?: string; description?: string };
			let embed: Embed | undefined;
			await waitUntil(
				async () => {
					const embeds = (await control.messages(channelId)).slice(posted).map((message) => message.embeds[0] as Embed | undefined);
					embed = embeds.find((each) => each?.title?.includes('fleet of 3 workers'));
					return embed?.description !== undefined && !embed.description.startsWith('Counting');
				},
				{ what: "the fleet's status to finish counting" },
			);
			return { title: embed!.title!, description: embed!.description!, toDo: toDoByWorker(embed!.description!) };
		};
		expect(await invoke('status')).toMatch(/^The fleet's journals \(FLEET_JOURNALS_DIR=.*\) hold no job for this server/);

		const pods = await Promise.all(Array.from({ length: K }, (_, index) => pod(index, 'massnick', NAME)));

		// Kill pod 1 mid-run, as a node failure would, then start it again as Kubernetes does: the
		// same index, the same volume.
		const byPod1 = async () =>
			memberPatches((await control.requests()).requests).filter((request) => request.botUserId === sandbox!.workerIds[1] && request.status === 200).length;
		await waitUntil(async () => (await byPod1()) >= 40, { what: 'pod 1 to rename 40 members' });
		pods[1]!.child.kill('SIGKILL');
		expect(await pods[1]!.exited).toBe('SIGKILL');
		const renamedBeforeKill = await byPod1();
		expect(renamedBeforeKill).toBeLessThan(renamable.length / K);

		// The others finish their parts; the boss finds the job in their journals and counts how
		// far it is from the live guild: worker 1's members not renamed are what is left.
		expect(await Promise.all([pods[0]!.exited, pods[2]!.exited])).toEqual([0, 0]);
		const changeable = new Set(changeableMembers(sandbox));
		const leftOf = async (worker: number) =>
			(await control.members(sandbox!.guildId)).filter(
				(member) => changeable.has(member.id) && workerIndexOf(member.id, K) === worker && member.nick !== `Fleet ${member.username}`,
			).length;
		const left = await leftOf(1);
		expect(left).toBeGreaterThan(0);
		const halfway = await fleetStatus(/^\*\*Renaming to “Fleet \{username\}”\*\* runs in the fleet's processes: every worker has a journal of it\./);
		expect(halfway.title).toMatch(/ · fleet of 3 workers · running$/);
		expect(halfway.description).toContain('journals: workers 0, 2 finished · worker 1 running');
		expect(halfway.toDo).toEqual([0, left, 0]);
		expect(halfway.description).toContain(`to do **${left.toLocaleString('en-US')}**`);
		expect(halfway.description).toContain('Pace: run /status again');

		// Pod 1 again, killed once more after some progress: the next /status measures the pace
		// between its two counts, exactly what pod 1 renamed in between (nothing moves while it counts).
		pods[1] = await pod(1, 'massnick', NAME);
		await waitUntil(async () => (await leftOf(1)) <= left - 20, { what: 'pod 1 to rename 20 more members' });
		pods[1].child.kill('SIGKILL');
		expect(await pods[1].exited).toBe('SIGKILL');
		const leftNow = await leftOf(1);
		const again = await fleetStatus(/ runs in the fleet's processes/);
		expect(again.toDo).toEqual([0, leftNow, 0]);
		expect(again.description).toMatch(
			new RegExp(`Pace: \\+${(left - leftNow).toLocaleString('en-US')} since the count <t:\\d+:R> · \\*\\*[\\d.]+\\*\\*/s · ETA `),
		);

		pods[1] = await pod(1, 'massnick', NAME);
		expect(await Promise.all(pods.map((each) => each.exited))).toEqual([0, 0, 0]);

		// Done: every part finished, and nothing left in the live guild.
		const done = await fleetStatus(/^The fleet's last job, \*\*Renaming to “Fleet \{username\}”\*\*, has finished in every process\./);
		expect(done.title).toMatch(/ · fleet of 3 workers · finished$/);
		expect(done.description).toContain('journals: workers 0–2 finished');
		expect(done.toDo).toEqual([0, 0, 0]);
		expect(done.description).toContain('Nothing left to do in the live server.');
		// /stats counts the fleet's job from the live guild too, without being told what it set.
		expect(await invoke('stats')).toMatch(new RegExp(`^\\*\\*${changeable.size.toLocaleString('en-US')}\\*\\* of [\\d,]+ members have`));

		// The guild ends fully renamed.
		const members = await control.members(sandbox.guildId);
		const notRenamed = members.filter((member) => renamable.includes(member.id) && member.nick !== `Fleet ${member.username}`);
		expect(notRenamed).toEqual([]);

		// Each change was sent by the token of the worker that owns the member, and only a request
		// on the wire when pod 1 died went out twice.
		const { requests, lastSeq } = await control.requests();
		const renames = memberPatches(requests).filter((request) => request.status === 200);
		expect(renames.filter((request) => request.botUserId !== ownerToken(request.targetId!))).toEqual([]);
		const twice = renamedTwice(requests);
		expect(twice.length).toBeLessThanOrEqual(MAX_IN_FLIGHT);
		for (const id of twice) expect(workerIndexOf(id, K)).toBe(1);

		// Each pod counted its own members only: the others' are "elsewhere", never in its total.
		for (const [index, each] of pods.entries()) {
			const ended = lastLine(each.output(), 'fleet job ended');
			const own = members.filter((member) => workerIndexOf(member.id, K) === index).length;
			expect(ended.total, `pod ${index}`).toBe(own);
			expect(ended.elsewhere, `pod ${index}`).toBe(members.length - own);
		}

		// Each pod's folder holds its own worker's journal file, and nothing else.
		for (const [index, dir] of dataDirs.entries()) {
			const files = await readdir(join(dir, sandbox.guildId));
			expect(files, `volume ${index}`).toHaveLength(1);
			expect(files[0]).toMatch(new RegExp(`\\.w${index}\\.jsonl$`));
		}

		// A restore per index, each from its own volume, brings back every original.
		const restores = await Promise.all(Array.from({ length: K }, (_, index) => pod(index, 'restore')));
		expect(await Promise.all(restores.map((each) => each.exited))).toEqual([0, 0, 0]);
		expect(await invoke('status')).toMatch(/^The fleet's last job, \*\*Renaming to “Fleet \{username\}”\*\*, was undone by a restore/);
		const after = await control.members(sandbox.guildId);
		const notRestored = after.filter((member) => member.nick !== (before.get(member.id) ?? null));
		expect(notRestored).toEqual([]);
		const undone = memberPatches((await control.requests(lastSeq)).requests).filter((request) => request.status === 200);
		expect(undone.filter((request) => request.botUserId !== ownerToken(request.targetId!))).toEqual([]);

		reportFigures('fleet of 3 pods, one killed', {
			members: members.length,
			renamed: renames.length,
			renamedByPod1BeforeKill: renamedBeforeKill,
			twice: twice.length,
			restored: undone.length,
			notRestored: notRestored.length,
		});
		// Three real processes each start, one is killed and started again, then each restores: on a
		// shared machine under load this takes over the suite's minute.
	}, 180_000);
});

describe('starting a fleet process without the boss', () => {
	let sandbox: Sandbox | undefined;

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 50, workers: 2, seed: 32, timeScale: 50 });
	});

	afterAll(async () => {
		await sandbox?.close();
	});

	const start = (env: Record<string, string>) =>
		startMassnick(
			loadConfig({
				env: { WORKER_TOKENS: sandbox!.workerTokens.join(','), GUILD_ID: sandbox!.guildId, DISCORD_API_URL: sandbox!.apiUrl, WORKER_COUNT: '2', ...env },
				configDir: 'test/support/config',
				dotenvPath: false,
			}),
			pino({ level: 'silent' }),
			{ boss: false },
		);

	it('refuses to start when no bot of the process may list members, saying both ways out', async () => {
		const error = await start({ JOB_COMPLETION_INDEX: '0' }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(JobError);
		expect((error as JobError).code).toBe(ErrorCodes.MembersIntentDisabled);
		expect((error as JobError).message).toContain('Set LISTER_TOKEN to the boss');
	});

	it('refuses a LISTER_TOKEN whose application lacks the Server Members intent, naming the key', async () => {
		const error = await start({ JOB_COMPLETION_INDEX: '0', LISTER_TOKEN: sandbox!.workerTokens[1]! }).catch((caught: unknown) => caught);
		expect((error as JobError).code).toBe(ErrorCodes.MembersIntentDisabled);
		expect((error as JobError).message).toMatch(/^LISTER_TOKEN's application .* does not have the Server Members intent/);
	});

	it('lists with LISTER_TOKEN over REST and holds its index alone, with the workers as the guild context', async () => {
		const massnick = await start({ JOB_COMPLETION_INDEX: '1', LISTER_TOKEN: sandbox!.bossToken });
		try {
			expect(massnick.boss).toBeUndefined();
			expect(massnick.fleet.ids).toEqual([1]);
			expect(massnick.listers().map((lister) => lister.label)).toEqual(['LISTER_TOKEN']);
			expect(massnick.guild.id).toBe(sandbox!.guildId);
			const context = massnick.guildContext();
			expect(context.ownerId).toBe(sandbox!.ownerId);
			expect([...context.botUserIds].sort()).toEqual([sandbox!.bossId, sandbox!.workerIds[1]!].sort());
		} finally {
			await massnick.stop();
		}
	});

	it('a boss holding no worker refuses a changing job, saying where it runs, and still counts the whole guild', async () => {
		const config = loadConfig({
			env: { BOSS_TOKEN: sandbox!.bossToken, GUILD_ID: sandbox!.guildId, DISCORD_API_URL: sandbox!.apiUrl, WORKER_COUNT: '2', WORKER_IDS: 'none' },
			configDir: 'test/support/config',
			dotenvPath: false,
		});
		const massnick = await startMassnick(config, pino({ level: 'silent' }));
		try {
			const action = parseNicknameAction('Count {username}', 32);
			const error = await massnick.jobs
				.startJob(action, { dryRun: false, startedBy: { id: '0', tag: 'test' }, rank: OPERATOR })
				.catch((caught: unknown) => caught);
			expect((error as JobError).code).toBe(ErrorCodes.NoWorkers);
			expect((error as JobError).message).toContain('run in other processes');
			const count = massnick.jobs.count(action, { id: '0', tag: 'test' });
			await count.ended();
			const snapshot = count.progress.snapshot();
			expect(snapshot.total).toBe((await new SandboxControl(sandbox!.controlUrl).members(sandbox!.guildId)).length);
			expect(snapshot.elsewhere).toBe(0);
			expect(snapshot.workers.map((worker) => worker.index)).toEqual([0, 1]);
			// Without the workers' tokens it cannot know their bots: it says so, and ranks nobody but
			// the owner out of their reach rather than everyone.
			expect(massnick.boss.unknownWorkers).toEqual([0, 1]);
			expect(massnick.guildContext().workerHighestPosition).toBe(Number.POSITIVE_INFINITY);
			expect(snapshot.cant).toBe(1);
		} finally {
			await massnick.stop();
		}
	});

	it("a boss holding no worker, given every worker's token, counts the guild as a boss holding them all does, and follows their bots' roles", async () => {
		const env = {
			BOSS_TOKEN: sandbox!.bossToken,
			WORKER_TOKENS: sandbox!.workerTokens.join(','),
			GUILD_ID: sandbox!.guildId,
			DISCORD_API_URL: sandbox!.apiUrl,
		};
		const action = parseNicknameAction('Count {username}', 32);
		const countWith = async (massnick: Massnick) => {
			const count = massnick.jobs.count(action, { id: '0', tag: 'test' });
			await count.ended();
			const { total, changed, alreadyDone, cant, skipped } = count.progress.snapshot();
			return { total, changed, alreadyDone, cant, skipped };
		};
		const control = new SandboxControl(sandbox!.controlUrl);
		const all = await startMassnick(loadConfig({ env, configDir: 'test/support/config', dotenvPath: false }), pino({ level: 'silent' }));
		let expected: { context: ReturnType<typeof all.guildContext>; counts: Awaited<ReturnType<typeof countWith>> };
		try {
			expected = { context: all.guildContext(), counts: await countWith(all) };
		} finally {
			await all.stop();
		}
		const massnick = await startMassnick(
			loadConfig({ env: { ...env, WORKER_COUNT: '2', WORKER_IDS: 'none' }, configDir: 'test/support/config', dotenvPath: false }),
			pino({ level: 'silent' }),
		);
		try {
			expect(massnick.fleet.size).toBe(0);
			expect(massnick.boss.unknownWorkers).toEqual([]);
			const context = massnick.guildContext();
			expect([...context.botUserIds].sort()).toEqual([sandbox!.bossId, ...sandbox!.workerIds].sort());
			expect(context.workerHighestPosition).toBe(expected.context.workerHighestPosition);
			expect(expected.counts.cant).toBeGreaterThan(1);
			expect(await countWith(massnick)).toEqual(expected.counts);

			// A changing command is refused privately, saying where jobs run; /shards says the same.
			const invoke = async (command: string, options: Record<string, unknown> = {}) => {
				const id = await control.invoke(sandbox!.guildId, sandbox!.ownerId, command, options, sandbox!.state.guild.channel.id);
				const body = (await control.waitForResponses(id, 1)).responses[0]!.body as { data?: { content?: string; flags?: number } };
				return body.data!;
			};
			for (const [command, options] of [
				['massnick', { name: 'Count {username}' }],
				['restore', {}],
			] as const) {
				const reply = await invoke(command, options);
				expect(reply.content, command).toContain('holds none of the 2 workers (WORKER_IDS=none): they run in other processes');
				expect(reply.flags! & 64, command).toBe(64);
			}
			expect((await invoke('shards')).content).toMatch(/^All 2 workers run in other processes/);

			// A worker bot losing its roles reaches nobody: the boss sees it from the member event.
			const bot = (await control.members(sandbox!.guildId)).find((member) => member.id === sandbox!.workerIds[1])!;
			for (const role of bot.roles) await control.removeMemberRole(sandbox!.guildId, bot.id, role);
			await waitUntil(() => massnick.guildContext().workerHighestPosition === 0, { what: "the boss to see worker 1's bot without its roles" });
			for (const role of bot.roles) await control.addMemberRole(sandbox!.guildId, bot.id, role);
			await waitUntil(() => massnick.guildContext().workerHighestPosition === expected.context.workerHighestPosition, { what: 'the roles back' });
		} finally {
			await massnick.stop();
		}
	});
});

/** The "to do" column of the fleet status's table, by worker. */
function toDoByWorker(description: string): number[] {
	const rows = description.split('\n').filter((line) => /^\s+\d+\s+[\d,]+\s+[\d,]+\s+[\d,]+\s+\w/.test(line));
	return rows.map((line) => Number(line.trim().split(/\s+/)[2]!.replaceAll(',', '')));
}

/** The last JSON log line with `msg`, as an object. */
function lastLine(output: string, msg: string): Record<string, number> {
	const line = output
		.split('\n')
		.filter((text) => text.includes(`"msg":"${msg}"`))
		.at(-1);
	if (!line) throw new Error(`no "${msg}" line in:\n${output}`);
	return JSON.parse(line) as Record<string, number>;
}
