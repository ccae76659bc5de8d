import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlMember, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { RunLock } from '../../src/cli/RunLock.js';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { memberPatches } from '../../bench/soak/invariants.js';
import { startRun } from '../support/spawnRun.js';
import type { Sandbox } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const NAME = 'Run {id}';
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

interface CliResult {
	code: number | string;
	stdout: string;
	stderr: string;
	/** Every request the sandbox answered while the command ran. */
	requests: SandboxRequest[];
}

async function runCli(sandbox: Sandbox, dataDir: string, args: readonly string[], env?: Readonly<Record<string, string | undefined>>): Promise<CliResult> {
	const control = new SandboxControl(sandbox.controlUrl);
	const { lastSeq } = await control.requests();
	const run = startRun(sandbox, dataDir, args, env);
	const code = await run.exited;
	const { requests } = await control.requests(lastSeq);
	return { code, stdout: run.stdout(), stderr: run.stderr(), requests };
}

/** stdout as log records; throws on a line that is not JSON. */
function logLines(stdout: string): Array<Record<string, unknown>> {
	return stdout
		.split('\n')
		.filter((line) => line.trim() !== '')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Ids of the members massnick renames: all but the owner, our own bots and anyone ranked at or
 * above the workers (another bot, like the guild's MEE6, is renamed like anyone).
 */
function renamableByMassnick(sandbox: Sandbox): string[] {
	const { state } = sandbox;
	const ours = new Set(state.apps.map((app) => app.memberIndex));
	const top = state.highestPosition(state.apps[0]!.memberIndex);
	const ids: string[] = [];
	for (const index of state.members.indices()) {
		if (!state.isOwner(index) && !ours.has(index) && state.highestPosition(index) < top) ids.push(state.members.idAt(index).toString());
	}
	return ids;
}

async function journalFiles(dataDir: string, guildId: string): Promise<string[]> {
	return (await readdir(join(dataDir, guildId)).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl'));
}

async function lastJournalLine(dataDir: string, guildId: string): Promise<Record<string, unknown>> {
	const [file] = await journalFiles(dataDir, guildId);
	const lines = (await readFile(join(dataDir, guildId, file!), 'utf8')).trim().split('\n');
	return JSON.parse(lines.at(-1)!) as Record<string, unknown>;
}

describe('massnick run: one job from a terminal or a scheduler, on the sandbox', () => {
	let sandbox: Sandbox;
	let control: SandboxControl;
	let dataDir: string;
	let before: Map<string, ControlMember>;
	let renamable: string[];

	const members = (): Promise<ControlMember[]> => control.members(sandbox.guildId);
	const expectNoSecret = (result: CliResult): void => {
		for (const token of [sandbox.bossToken, ...sandbox.workerTokens]) {
			expect(result.stdout).not.toContain(token);
			expect(result.stderr).not.toContain(token);
		}
	};

	beforeAll(async () => {
		sandbox = await startSandbox({ members: 300, workers: 4, seed: 21, timeScale: 100 });
		control = new SandboxControl(sandbox.controlUrl);
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-run-'));
		before = new Map((await members()).map((member) => [member.id, member]));
		renamable = renamableByMassnick(sandbox);
	});

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('a bad flag exits 2 naming it, with the usage, before anything connects', async () => {
		const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME, '--rol', '1234']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('unknown option --rol');
		expect(result.stderr).toContain('usage: massnick run <job>');
		expect(result.requests).toEqual([]);
	});

	it('a dry run counts who would be renamed, sends nothing and journals nothing', async () => {
		const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME, '--dry-run']);
		expect(result.code).toBe(0);
		expect(result.requests.filter((request) => request.route.startsWith('/guilds/:id/members/:id') && request.method !== 'GET')).toEqual([]);
		expect(result.stderr).toContain(`would change ${renamable.length} ·`);
		expect(result.stderr).toContain('Dry run: nothing was sent.');
		expect(await journalFiles(dataDir, sandbox.guildId)).toEqual([]);
	});

	it('run massnick renames everyone renamable and exits 0, with its progress as JSON lines when not on a terminal', async () => {
		const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME, '--progress-every', '0.2']);
		expect(result.code, result.stderr).toBe(0);
		const after = await members();
		const renamed = after.filter((member) => member.nick !== before.get(member.id)?.nick);
		expect(new Set(renamed.map((member) => member.id))).toEqual(new Set(renamable));
		for (const member of renamed) expect(member.nick).toBe(`Run ${member.id}`);
		expect(memberPatches(result.requests).filter((request) => request.status !== 200)).toEqual([]);

		const lines = logLines(result.stdout);
		expect(lines.filter((line) => line.msg === 'job progress').length).toBeGreaterThanOrEqual(1);
		const ended = lines.filter((line) => line.msg === 'run ended');
		expect(ended).toHaveLength(1);
		expect(ended[0]).toMatchObject({ state: 'finished', exitCode: 0, undone: 0, changed: renamable.length, failed: 0 });
		expect(lines.find((line) => line.msg === 'job started')).toMatchObject({ by: expect.stringMatching(/^cli/) });
		expect(result.stderr).toMatch(/^Done: /m);
		expectNoSecret(result);
	});

	it('a rerun exits 0 and sends no PATCH', async () => {
		const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME]);
		expect(result.code, result.stderr).toBe(0);
		expect(memberPatches(result.requests)).toEqual([]);
		expect(result.stderr).toContain(`already done ${renamable.length} ·`);
	});

	it('run restore undoes the last job and exits 0', async () => {
		const result = await runCli(sandbox, dataDir, ['restore']);
		expect(result.code, result.stderr).toBe(0);
		expect(result.stderr).toContain('Undoing the last job: Renaming to “Run {id}”, started by cli');
		const notRestored = (await members()).filter((member) => member.nick !== before.get(member.id)?.nick);
		expect(notRestored).toEqual([]);
		expect(await lastJournalLine(dataDir, sandbox.guildId)).toMatchObject({ type: 'status', state: 'restored' });
	});

	it('run massrole add gives the role to every member and exits 0', async () => {
		const eventId = (await control.state()).roles.find((role) => role.name === 'Event')!.id;
		const result = await runCli(sandbox, dataDir, ['massrole', 'add', '--role', eventId]);
		expect(result.code, result.stderr).toBe(0);
		const ourBots = new Set(sandbox.state.apps.map((app) => sandbox.state.members.idAt(app.memberIndex).toString()));
		const lacking = (await members()).filter((member) => !ourBots.has(member.id) && !member.roles.includes(eventId));
		expect(lacking).toEqual([]);
		const puts = result.requests.filter((request) => request.route === ROLE_ROUTE && request.method === 'PUT');
		expect(puts.length).toBeGreaterThan(0);
		expect(puts.filter((put) => put.status !== 204)).toEqual([]);
	});

	it('a role at or above the workers is refused with the reason and what to do; no role request goes out', async () => {
		const moderatorId = (await control.state()).roles.find((role) => role.name === 'Moderator')!.id;
		const journals = await journalFiles(dataDir, sandbox.guildId);
		const result = await runCli(sandbox, dataDir, ['massrole', 'add', '--role', moderatorId]);
		expect(result.code).toBe(4);
		expect(result.stderr).toContain("@Moderator is at or above the workers' highest role");
		expect(result.stderr).toContain("Move the workers' role above @Moderator");
		expect(result.requests.filter((request) => request.route === ROLE_ROUTE)).toEqual([]);
		expect(await journalFiles(dataDir, sandbox.guildId)).toEqual(journals);
	});

	it('a run while another holds the lock exits 5 (retry later) before anything connects', async () => {
		const path = RunLock.pathOf(dataDir, sandbox.guildId);
		await writeFile(
			path,
			JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), nonce: 'another-run', what: 'massnick run restore' }),
		);
		try {
			const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME]);
			expect(result.code).toBe(5);
			expect(result.stderr).toContain('Another massnick run is running a job on this guild (massnick run restore)');
			expect(result.stderr).toContain('Nothing ran; run it again later.');
			expect(result.requests).toEqual([]);
		} finally {
			await rm(path);
		}
	});

	it('a journal with no end line for another job refuses a new one, naming it and how to settle it', async () => {
		// What a process killed mid-run leaves behind (or one that is running it right now).
		const unfinished = await Journal.create(dataDir, {
			jobId: '20200101T000000Z-nickname-9',
			guildId: sandbox.guildId,
			action: 'nickname',
			target: 'Old {username}',
			title: 'Renaming to “Old {username}”',
			onlyRoleId: null,
			excludeRoleId: null,
			startedBy: { id: '0', tag: 'cli:cron' },
			startedAt: new Date().toISOString(),
			workers: 4,
		});
		await unfinished.close();
		try {
			const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME]);
			expect(result.code).toBe(4);
			expect(result.stderr).toContain('Another job has no end in its journal: Renaming to “Old {username}”, started by cli:cron');
			expect(result.stderr).toContain('finish it by running it again with the same target, or undo it with massnick run restore');
			expect(memberPatches(result.requests)).toEqual([]);
		} finally {
			await rm(unfinished.path);
		}
	});

	it('run masstimeout: a bad duration exits 2 before connecting; workers without Moderate Members exit 4 naming it; with it, the raid is timed out and restore lifts it', async () => {
		const tooLong = await runCli(sandbox, dataDir, ['masstimeout', '--duration', '30d']);
		expect(tooLong.code).toBe(2);
		expect(tooLong.stderr).toContain('duration: "30d" is longer than Discord lets a timeout last');
		expect(tooLong.requests).toEqual([]);

		const { raidIds } = await control.stageRaid(sandbox.guildId, { count: 30, realJoiners: 10, seed: 5 });
		const aim = ['--joined-after', '30m', '--created-after', '1d'];
		const lacking = await runCli(sandbox, dataDir, ['masstimeout', '--duration', '2h', ...aim]);
		expect(lacking.code).toBe(4);
		expect(lacking.stderr).toMatch(/lack the Moderate Members permission this job needs/);
		expect(memberPatches(lacking.requests)).toEqual([]);

		const massnickRole = sandbox.state.guild.roleIds.Massnick;
		const permissions = BigInt(sandbox.state.guild.roles.find((role) => role.id === massnickRole)!.permissions);
		await control.editRole(sandbox.guildId, massnickRole, { permissions: String(permissions | PermissionFlagsBits.ModerateMembers) });
		const timedOut = await runCli(sandbox, dataDir, ['masstimeout', '--duration', '2h', ...aim, '--reason', 'cron cleanup']);
		expect(timedOut.code, timedOut.stderr).toBe(0);
		expect(timedOut.stderr).toMatch(/Started: Timing out until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, reason “cron cleanup”/);
		expect(new Set(memberPatches(timedOut.requests).map((request) => request.targetId))).toEqual(new Set(raidIds));
		expect(timedOut.requests.filter((request) => request.status === 403 || request.status === 429)).toEqual([]);

		const lifted = await runCli(sandbox, dataDir, ['restore']);
		expect(lifted.code, lifted.stderr).toBe(0);
		expect(new Set(memberPatches(lifted.requests).map((request) => request.targetId))).toEqual(new Set(raidIds));
		for (const id of raidIds) expect(sandbox.state.timeouts.get(sandbox.state.members.indexOf(BigInt(id))) ?? null).toBe(null);
	});
});

describe('massnick run in a pod of a fleet: one worker, no boss', () => {
	let sandbox: Sandbox | undefined;
	const dataDirs: string[] = [];

	afterAll(async () => {
		await sandbox?.close();
		for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
	});

	it("with JOB_COMPLETION_INDEX and no BOSS_TOKEN it renames exactly its worker's members, exits 0, and its restore brings them back", async () => {
		const K = 4;
		sandbox = await startSandbox({ members: 300, workers: K, seed: 23, timeScale: 100 });
		const control = new SandboxControl(sandbox.controlUrl);
		const dataDir = await mkdtemp(join(tmpdir(), 'massnick-run-pod-'));
		dataDirs.push(dataDir);
		const before = new Map((await control.members(sandbox.guildId)).map((member) => [member.id, member.nick]));
		const renamable = renamableByMassnick(sandbox);
		const index = 2;
		const own = renamable.filter((id) => workerIndexOf(id, K) === index);
		// As deploy/kubernetes/jobs/rename.yaml configures a pod: every worker's token, the boss's as LISTER_TOKEN.
		const pod = { BOSS_TOKEN: undefined, WORKER_COUNT: String(K), JOB_COMPLETION_INDEX: String(index), LISTER_TOKEN: sandbox.bossToken };

		// A standing rule follows joins through the boss's gateway, which a pod has not: refused, nothing sent.
		const rule = await runCli(sandbox, dataDir, ['massnick', '--name', NAME, '--keep'], pod);
		expect(rule.code).toBe(4);
		expect(rule.stderr).toContain('--keep makes a standing rule, which follows joins through the boss');
		expect(rule.stderr).toContain('BOSS_TOKEN is not set here');
		expect(rule.requests).toEqual([]);

		const result = await runCli(sandbox, dataDir, ['massnick', '--name', NAME], pod);
		expect(result.code, result.stderr).toBe(0);
		const after = await control.members(sandbox.guildId);
		const renamed = after.filter((member) => member.nick !== before.get(member.id));
		expect(new Set(renamed.map((member) => member.id))).toEqual(new Set(own));
		const patches = memberPatches(result.requests);
		expect(patches.filter((request) => request.botUserId !== sandbox!.workerIds[index])).toEqual([]);
		// No boss: the boss's token only listed, over REST (no commands registered, no gateway session).
		const byBoss = result.requests.filter((request) => request.botUserId === sandbox!.bossId);
		expect(byBoss.length).toBeGreaterThan(0);
		expect(new Set(byBoss.map((request) => `${request.method} ${request.route}`))).toEqual(new Set(['GET /applications/@me', 'GET /guilds/:id/members']));
		expect(result.stderr).toContain('This process holds worker 2 of 4: the members of the other 3 workers are left to the processes holding them.');
		const others = after.filter((member) => workerIndexOf(member.id, K) !== index).length;
		const ended = logLines(result.stdout).find((line) => line.msg === 'run ended')!;
		expect(ended).toMatchObject({ state: 'finished', exitCode: 0, changed: own.length, elsewhere: others });
		expect(result.stderr).toContain(`${others} members belong to workers in other processes`);
		expect(await journalFiles(dataDir, sandbox.guildId)).toEqual([expect.stringMatching(/\.w2\.jsonl$/)]);

		const restore = await runCli(sandbox, dataDir, ['restore'], pod);
		expect(restore.code, restore.stderr).toBe(0);
		const notRestored = (await control.members(sandbox.guildId)).filter((member) => member.nick !== before.get(member.id));
		expect(notRestored).toEqual([]);
	});
});

describe('massnick run and signals', () => {
	let sandbox: Sandbox | undefined;
	let dataDir = '';

	afterAll(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
	});

	it('SIGTERM mid-run cancels the job and exits 3 with the journal marked cancelled; the same command again finishes it', async () => {
		sandbox = await startSandbox({ members: 250, workers: 2, seed: 22, timeScale: 40 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-run-term-'));
		const control = new SandboxControl(sandbox.controlUrl);
		const renamable = renamableByMassnick(sandbox);

		const run = startRun(sandbox, dataDir, ['massnick', '--name', NAME]);
		await waitUntil(async () => memberPatches((await control.requests()).requests).filter((request) => request.status === 200).length >= 30, {
			what: '30 renames',
		});
		run.signal('SIGTERM');
		expect(await run.exited, run.stderr()).toBe(3);
		expect(run.stderr()).toMatch(/^Cancelled by SIGTERM: \d+ not done\. What was done stays journaled: run the same command again to finish it/m);
		expect(await lastJournalLine(dataDir, sandbox.guildId)).toMatchObject({ type: 'status', state: 'cancelled' });
		const ended = logLines(run.stdout()).find((line) => line.msg === 'run ended');
		expect(ended).toMatchObject({ state: 'cancelled', exitCode: 3 });
		const renamedFirst = ended!.changed as number;
		expect(renamedFirst).toBeLessThan(renamable.length);

		const rerun = await runCli(sandbox, dataDir, ['massnick', '--name', NAME]);
		expect(rerun.code, rerun.stderr).toBe(0);
		expect(rerun.stderr).toContain('The same job ran before');
		// A rename on the wire at the signal may land after its answer was given up on: the rerun
		// finds that member done, never renamed twice.
		const counts = logLines(rerun.stdout).find((line) => line.msg === 'run ended')!;
		expect((counts.changed as number) + (counts.alreadyDone as number)).toBe(renamable.length);
		expect(counts.changed as number).toBeLessThanOrEqual(renamable.length - renamedFirst);
		const notRenamed = (await control.members(sandbox.guildId)).filter((member) => renamable.includes(member.id) && member.nick !== `Run ${member.id}`);
		expect(notRenamed).toEqual([]);
	});
});
