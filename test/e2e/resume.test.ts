import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changeableMembers, type ControlMessage, SandboxControl, type SandboxRequest, startSandbox } from '@massnick/discord-sandbox';
import { Journal } from '../../src/jobs/journal/Journal.js';
import { type RunRecord, writeRunRecord } from '../../src/jobs/journal/runRecord.js';
import { workerIndexOf } from '../../src/workers/partition.js';
import { journalLines } from '../support/journalLines.js';
import { memberPatches, renamedTwice } from '../../bench/soak/invariants.js';
import { reportFigures } from '../support/reportFigures.js';
import { type BotProcess, spawnBot } from '../support/spawnBot.js';
import { type Sandbox, startMassnickOn } from '../support/startStack.js';
import { waitUntil } from '../support/waitUntil.js';

const WORKERS = 4;
/** `workers.maxInFlight` of test/support/config: what each worker can have on the wire at a kill. */
const MAX_IN_FLIGHT = 10;
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

const roleGives = (requests: readonly SandboxRequest[]): SandboxRequest[] =>
	requests.filter((request) => request.route === ROLE_ROUTE && request.method === 'PUT' && request.status === 204);

/** Changes a member got answered as done (a rename, a role given or taken). */
const memberChanges = (requests: readonly SandboxRequest[]): SandboxRequest[] =>
	requests.filter(
		(request) =>
			request.targetId !== undefined &&
			request.targetId !== null &&
			(request.route === ROLE_ROUTE
				? request.status === 204
				: request.method === 'PATCH' && request.route === '/guilds/:id/members/:id' && request.status === 200),
	);

/** The last status line of the guild's journals, if any. */
async function lastStatus(dataDir: string, guildId: string): Promise<Record<string, unknown> | undefined> {
	return (await journalLines(dataDir, guildId)).filter((line) => line.type === 'status').at(-1);
}

/** The one run record of the guild's data folder, and where it is. */
async function runRecord(dataDir: string, guildId: string): Promise<{ path: string; record: RunRecord }> {
	const dir = join(dataDir, guildId);
	const names = (await readdir(dir)).filter((name) => name.endsWith('.run.json'));
	expect(names).toHaveLength(1);
	const path = join(dir, names[0]!);
	return { path, record: JSON.parse(await readFile(path, 'utf8')) as RunRecord };
}

/** Channel messages of the boss (not answers to an interaction) whose content matches `pattern`. */
async function posted(control: SandboxControl, channelId: string, pattern: RegExp): Promise<ControlMessage[]> {
	return (await control.messages(channelId)).filter((message) => message.interactionId === null && !message.ephemeral && pattern.test(message.content));
}

describe('a job goes on by itself after a restart', () => {
	let sandbox: Sandbox | undefined;
	let bot: BotProcess | undefined;
	const folders: string[] = [];

	afterEach(async () => {
		bot?.child.kill('SIGKILL');
		await bot?.exited;
		await sandbox?.close();
		for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
		bot = undefined;
		sandbox = undefined;
	});

	async function folder(prefix: string): Promise<string> {
		const made = await mkdtemp(join(tmpdir(), prefix));
		folders.push(made);
		return made;
	}

	/** A config folder: the tests' settings, with `jobs.resumeOnStart` off. */
	async function resumeOff(): Promise<string> {
		const configDir = await folder('massnick-config-');
		await cp('test/support/config', configDir, { recursive: true });
		const settings = JSON.parse(await readFile(join(configDir, 'massnick.json'), 'utf8')) as Record<string, unknown>;
		await writeFile(join(configDir, 'massnick.json'), JSON.stringify({ ...settings, jobs: { resumeOnStart: false } }));
		return configDir;
	}

	/** The boss's channel message that says why a job was not resumed, once it is posted. */
	async function notResumedMessage(control: SandboxControl, channelId: string): Promise<ControlMessage> {
		let found: ControlMessage | undefined;
		await waitUntil(
			async () => {
				found = (await posted(control, channelId, /was not resumed after the restart/))[0];
				return found !== undefined;
			},
			{ what: 'why the job was not resumed' },
		);
		return found!;
	}

	/** Runs `/command` as the owner and waits for its answer's text to match `pattern`; returns it. */
	async function answerTo(control: SandboxControl, box: Sandbox, command: string, pattern: RegExp): Promise<string> {
		const id = await control.invoke(box.guildId, box.ownerId, command, {}, box.channelId);
		let answer = '';
		await waitUntil(
			async () => {
				const { originalMessageId } = await control.interaction(id);
				answer = originalMessageId === null ? '' : (await control.message(box.channelId, originalMessageId)).content;
				return pattern.test(answer);
			},
			{ what: `the answer to /${command}` },
		);
		return answer;
	}

	/**
	 * Starts the sandbox and `npm start`, runs `command` as `userId`, and SIGKILLs the bot once
	 * `changes` member changes are answered; returns the request log's last entry at the kill.
	 */
	async function killMidRun(setup: {
		members: number;
		seed: number;
		command: string;
		options: (sandbox: Sandbox, control: SandboxControl) => Promise<Record<string, unknown>>;
		userId?: (sandbox: Sandbox, control: SandboxControl) => Promise<string>;
		changes: number;
	}) {
		sandbox = await startSandbox({ members: setup.members, workers: WORKERS, seed: setup.seed, timeScale: 40 });
		const dataDir = await folder('massnick-resume-');
		const control = new SandboxControl(sandbox.controlUrl);
		const options = await setup.options(sandbox, control);
		const userId = (await setup.userId?.(sandbox, control)) ?? sandbox.ownerId;
		const before = await control.members(sandbox.guildId);
		bot = await spawnBot(sandbox, dataDir);
		await control.invoke(sandbox.guildId, userId, setup.command, options, sandbox.channelId);
		await waitUntil(async () => memberChanges((await control.requests()).requests).length >= setup.changes, { what: `${setup.changes} member changes` });
		bot.child.kill('SIGKILL');
		await bot.exited;
		bot = undefined;
		const { lastSeq: killedAt } = await control.requests();
		expect(await lastStatus(dataDir, sandbox.guildId)).toBeUndefined();
		return { sandbox, control, dataDir, before, killedAt, options, userId };
	}

	/** Every change in `requests` went out from the worker that owns its member. */
	function expectOwnersOnly(box: Sandbox, requests: readonly SandboxRequest[]): void {
		const strays = memberChanges(requests).filter((request) => request.botUserId !== box.workerIds[workerIndexOf(request.targetId!, WORKERS)]);
		expect(strays).toEqual([]);
	}

	it('/massnick SIGKILLed mid-run finishes once the bot is started again with no command, in the old status message; /restore brings back every original', async () => {
		const {
			sandbox: box,
			control,
			dataDir,
			before,
			killedAt,
		} = await killMidRun({
			members: 400,
			seed: 31,
			command: 'massnick',
			options: async () => ({ name: 'R {username}' }),
			changes: 100,
		});
		const statusBefore = (await control.messages(box.channelId)).find((message) => message.interactionId === null && message.embeds.length > 0);
		expect(statusBefore).toBeDefined();

		bot = await spawnBot(box, dataDir);
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId))?.state === 'finished', { what: 'the resumed job to finish' });
		expect(bot.output()).toContain('job resumed after a restart');
		const { requests } = await control.requests();
		expect(memberPatches(requests.filter((request) => request.seq > killedAt)).length).toBeGreaterThan(0);

		// Every member the job should change has the name it set, each by the worker that owns them.
		const originals = (await journalLines(dataDir, box.guildId)).filter((line) => line.type === 'original');
		const setTo = new Map(originals.map((line) => [String(line.id), line.to]));
		const now = new Map((await control.members(box.guildId)).map((member) => [member.id, member.nick]));
		const unchanged = changeableMembers(box).filter((id) => now.get(id) !== setTo.get(id) || !String(setTo.get(id)).startsWith('R '));
		expect(unchanged).toEqual([]);
		expectOwnersOnly(box, requests);
		const twice = renamedTwice(requests);
		expect(twice.length).toBeLessThanOrEqual(WORKERS * MAX_IN_FLIGHT);

		// Seen: the old status message now shows the resumed run, and a line below points at it.
		await waitUntil(async () => /Resumed after a restart at/.test((await control.message(box.channelId, statusBefore!.id)).content), {
			what: 'the old status to say it resumed',
		});
		expect(await posted(control, box.channelId, /resumed after a restart; its live status is up here/)).toHaveLength(1);
		const { record } = await runRecord(dataDir, box.guildId);
		expect(record.resumes).toHaveLength(1);
		expect(record.startedBy.id).toBe(box.ownerId);

		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		bot = undefined;
		const again = await startMassnickOn(box, dataDir, box.workerTokens);
		try {
			const restore = await again.runJob('restore', {});
			expect(restore.result?.state).toBe('finished');
			expectOwnersOnly(box, (await control.requests(killedAt)).requests);
		} finally {
			await again.close();
		}
		const notRestored = (await control.members(box.guildId)).filter((member) => member.nick !== (before.find((old) => old.id === member.id)?.nick ?? null));
		expect(notRestored).toEqual([]);
		reportFigures('SIGKILL and resume', {
			renamedBeforeKill: memberPatches(requests.filter((request) => request.seq <= killedAt && request.status === 200)).length,
			renamedByResume: memberPatches(requests.filter((request) => request.seq > killedAt && request.status === 200)).length,
			unchanged: unchanged.length,
			twice: twice.length,
			notRestored: notRestored.length,
		});
	});

	it('/massrole add SIGKILLed mid-run gives the role to every member once resumed, each by its owner; /restore takes it from exactly those', async () => {
		let eventId = '';
		const {
			sandbox: box,
			control,
			dataDir,
			killedAt,
			before,
		} = await killMidRun({
			members: 300,
			seed: 32,
			command: 'massrole add',
			options: async (_box, ctl) => {
				eventId = (await ctl.state()).roles.find((role) => role.name === 'Event')!.id;
				return { role: eventId };
			},
			changes: 80,
		});
		const holdersBefore = new Set(before.filter((member) => member.roles.includes(eventId)).map((member) => member.id));
		bot = await spawnBot(box, dataDir);
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId))?.state === 'finished', { what: 'the resumed job to finish' });
		const { requests } = await control.requests();
		expect(roleGives(requests.filter((request) => request.seq > killedAt)).length).toBeGreaterThan(0);
		const bots = new Set([box.bossId, ...box.workerIds]);
		const lacking = (await control.members(box.guildId)).filter((member) => !bots.has(member.id) && !member.roles.includes(eventId));
		expect(lacking).toEqual([]);
		expectOwnersOnly(box, requests);
		const perMember = new Map<string, number>();
		for (const put of roleGives(requests)) perMember.set(put.targetId!, (perMember.get(put.targetId!) ?? 0) + 1);
		const twice = [...perMember.values()].filter((count) => count > 1).length;
		expect(twice).toBeLessThanOrEqual(WORKERS * MAX_IN_FLIGHT);

		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		bot = undefined;
		const again = await startMassnickOn(box, dataDir, box.workerTokens);
		try {
			expect((await again.runJob('restore', {})).result?.state).toBe('finished');
		} finally {
			await again.close();
		}
		const holdersNow = new Set((await control.members(box.guildId)).filter((member) => member.roles.includes(eventId)).map((member) => member.id));
		expect(holdersNow).toEqual(holdersBefore);
		reportFigures('massrole SIGKILL and resume', {
			givenBeforeKill: roleGives(requests.filter((request) => request.seq <= killedAt)).length,
			givenByResume: roleGives(requests.filter((request) => request.seq > killedAt)).length,
			lacking: lacking.length,
			twice,
		});
	});

	it('/restore SIGKILLed mid-run goes on by itself after a restart, for whoever ran it, until every original is back', async () => {
		sandbox = await startSandbox({ members: 400, workers: WORKERS, seed: 35, timeScale: 40 });
		const box = sandbox;
		const dataDir = await folder('massnick-resume-');
		const control = new SandboxControl(box.controlUrl);
		const before = new Map((await control.members(box.guildId)).map((member) => [member.id, member.nick]));
		bot = await spawnBot(box, dataDir);
		await control.invoke(box.guildId, box.ownerId, 'massnick', { name: 'U {username}' }, box.channelId);
		// The journal's folder is made as the job starts.
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId).catch(() => undefined))?.state === 'finished', { what: 'the job to finish' });
		const { lastSeq: jobEnd } = await control.requests();
		const renamed = memberPatches((await control.requests()).requests).filter((request) => request.status === 200).length;

		await control.invoke(box.guildId, box.ownerId, 'restore', {}, box.channelId);
		await waitUntil(async () => memberPatches((await control.requests(jobEnd)).requests).filter((request) => request.status === 200).length >= 80, {
			what: '80 members restored',
		});
		bot.child.kill('SIGKILL');
		await bot.exited;
		bot = undefined;
		const { lastSeq: killedAt } = await control.requests();
		const restoredBeforeKill = memberPatches((await control.requests(jobEnd)).requests).filter((request) => request.status === 200).length;
		expect(restoredBeforeKill).toBeLessThan(renamed);
		const { record: interrupted } = await runRecord(dataDir, box.guildId);
		expect(interrupted.restore?.startedBy.id).toBe(box.ownerId);
		expect(interrupted.restoreEndedAt).toBeUndefined();

		// Started again with no command: the restore goes on, and its channel shows it.
		bot = await spawnBot(box, dataDir);
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId))?.state === 'restored', { what: 'the resumed restore to finish' });
		expect(bot.output()).toContain('restore resumed after a restart');
		const notRestored = (await control.members(box.guildId)).filter((member) => member.nick !== (before.get(member.id) ?? null));
		expect(notRestored).toEqual([]);
		const { requests } = await control.requests(jobEnd);
		expectOwnersOnly(box, requests);
		const restoredByResume = memberPatches(requests.filter((request) => request.seq > killedAt && request.status === 200)).length;
		expect(restoredByResume).toBeGreaterThan(0);
		// Each member went back once, but for what was on the wire at the kill.
		const twice = renamedTwice(requests).length;
		expect(twice).toBeLessThanOrEqual(WORKERS * MAX_IN_FLIGHT);
		await waitUntil(async () => (await posted(control, box.channelId, /Resumed after a restart at/)).length > 0, { what: "the resumed restore's status" });
		// The run record is marked after the journal's last line (see launchRun): waited for, not raced.
		await waitUntil(async () => (await runRecord(dataDir, box.guildId)).record.restoreEndedAt !== undefined, {
			what: 'the restore marked ended in its run record',
		});
		const { record } = await runRecord(dataDir, box.guildId);
		expect(record.restore?.resumes).toHaveLength(1);

		// Ended: the next start resumes nothing.
		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);
		const { lastSeq: stoppedAt } = await control.requests();
		bot = await spawnBot(box, dataDir, { readyText: 'there is nothing to resume' });
		expect(bot.output()).not.toContain('resumed after a restart');
		expect(memberPatches((await control.requests(stoppedAt)).requests)).toEqual([]);
		reportFigures('/restore SIGKILL and resume', { renamed, restoredBeforeKill, restoredByResume, notRestored: notRestored.length, twice });
	});

	it('a /restore stopped with /cancel is not resumed by the next start', async () => {
		sandbox = await startSandbox({ members: 300, workers: WORKERS, seed: 36, timeScale: 40 });
		const box = sandbox;
		const dataDir = await folder('massnick-resume-');
		const control = new SandboxControl(box.controlUrl);
		bot = await spawnBot(box, dataDir);
		await control.invoke(box.guildId, box.ownerId, 'massnick', { name: 'C {username}' }, box.channelId);
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId).catch(() => undefined))?.state === 'finished', { what: 'the job to finish' });
		const { lastSeq: jobEnd } = await control.requests();
		await control.invoke(box.guildId, box.ownerId, 'restore', {}, box.channelId);
		await waitUntil(async () => memberPatches((await control.requests(jobEnd)).requests).filter((request) => request.status === 200).length >= 40, {
			what: '40 members restored',
		});
		await answerTo(control, box, 'cancel', /^Cancelling \*\*/);
		await waitUntil(async () => (await runRecord(dataDir, box.guildId)).record.restoreEndedAt !== undefined, { what: 'the restore to end' });
		bot.child.kill('SIGKILL');
		await bot.exited;
		const { lastSeq: killedAt } = await control.requests();
		bot = await spawnBot(box, dataDir, { readyText: 'there is nothing to resume' });
		expect(bot.output()).not.toContain('resumed after a restart');
		// The journal stays open for the next /restore, which nothing runs by itself.
		expect((await lastStatus(dataDir, box.guildId))?.state).not.toBe('restored');
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);
	});

	it('with jobs.resumeOnStart off, nothing is sent after the restart until the command is run again', async () => {
		const {
			sandbox: box,
			control,
			dataDir,
			killedAt,
			options,
		} = await killMidRun({
			members: 300,
			seed: 33,
			command: 'massnick',
			options: async () => ({ name: 'Off {username}' }),
			changes: 60,
		});
		bot = await spawnBot(box, dataDir, { configDir: await resumeOff(), readyText: 'jobs.resumeOnStart is off' });

		// The boss answers /status (it counts what is left, which only reads): still nothing sent.
		await answerTo(control, box, 'status', /did not finish/);
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);

		await control.invoke(box.guildId, box.ownerId, 'massnick', options, box.channelId);
		await waitUntil(async () => (await lastStatus(dataDir, box.guildId))?.state === 'finished', { what: 'the rerun to finish' });
		expect(memberPatches((await control.requests(killedAt)).requests).length).toBeGreaterThan(0);
	});

	it('a requester demoted while the bot was down: nothing is resumed, and the channel says why and who can continue', async () => {
		let senior = '';
		const {
			sandbox: box,
			control,
			dataDir,
			killedAt,
			userId,
		} = await killMidRun({
			members: 300,
			seed: 34,
			command: 'massnick',
			options: async () => ({ name: 'Helper {username}' }),
			// A member with Manage Nicknames twice: Senior high up, Junior just above @everyone.
			userId: async (sb, ctl) => {
				const roles = (await ctl.state()).roles;
				const workers = roles.find((role) => role.name === 'Massnick')!.position;
				senior = (await ctl.createRole(sb.guildId, { name: 'Senior', permissions: ['ManageNicknames'], position: workers })).id;
				const junior = (await ctl.createRole(sb.guildId, { name: 'Junior', permissions: ['ManageNicknames'], position: 1 })).id;
				const helper = (await ctl.members(sb.guildId)).find((member) => !member.bot && member.roles.length === 0 && member.id !== sb.ownerId)!.id;
				await ctl.addMemberRole(sb.guildId, helper, senior);
				await ctl.addMemberRole(sb.guildId, helper, junior);
				return helper;
			},
			changes: 60,
		});
		await control.removeMemberRole(box.guildId, userId, senior);
		bot = await spawnBot(box, dataDir, { readyText: 'job not resumed after a restart' });
		const said = await notResumedMessage(control, box.channelId);
		expect(said.content).toMatch(/was demoted since \(their highest role was @Senior; now it is @Junior\)/);
		expect(said.content).toContain(
			'Run the same command again to continue, or /restore to undo it; the server owner or a member with Manage Nicknames ranked at least as high as @Senior can.',
		);
		expect(said.mentions).toEqual([]);
		expect(bot.output()).toMatch(/was demoted/);
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);
		expect((await runRecord(dataDir, box.guildId)).record.resumes).toEqual([]);
	});

	it('three deaths within ten minutes of each resume: no fourth resume, and /status says why', async () => {
		const {
			sandbox: box,
			control,
			dataDir,
			killedAt,
		} = await killMidRun({
			members: 300,
			seed: 35,
			command: 'massnick',
			options: async () => ({ name: 'Loop {username}' }),
			changes: 60,
		});
		// As if the job had been resumed three times in the last few minutes, the process dying each time.
		const { path, record } = await runRecord(dataDir, box.guildId);
		const minutesAgo = (minutes: number): string => new Date(Date.now() - minutes * 60_000).toISOString();
		await writeFile(path, JSON.stringify({ ...record, resumes: [minutesAgo(7), minutesAgo(4), minutesAgo(1)] }));

		bot = await spawnBot(box, dataDir, { readyText: 'job not resumed after a restart' });
		const said = await notResumedMessage(control, box.channelId);
		expect(said.content).toContain(
			'it was resumed 3 times in 10 minutes and each time it stopped short of its end (the process died, or the job failed), so it is not resumed again. Fix the cause in the log, then run the same command to continue, or /cancel.',
		);
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);

		const answer = await answerTo(control, box, 'status', /did not finish/);
		expect(answer).toContain('Not resumed after the restart');
		expect(answer).toContain('resumed 3 times in 10 minutes and each time it stopped short of its end');
		expect((await runRecord(dataDir, box.guildId)).record.resumes).toHaveLength(3);
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);
	});

	it('/cancel with no job running closes the interrupted one: the next start resumes nothing', async () => {
		const {
			sandbox: box,
			control,
			dataDir,
			killedAt,
		} = await killMidRun({
			members: 300,
			seed: 36,
			command: 'massnick',
			options: async () => ({ name: 'Closed {username}' }),
			changes: 60,
		});
		bot = await spawnBot(box, dataDir, { configDir: await resumeOff(), readyText: 'jobs.resumeOnStart is off' });
		await answerTo(control, box, 'cancel', /is closed: no restart resumes it/);
		expect(await lastStatus(dataDir, box.guildId)).toMatchObject({ state: 'cancelled' });
		bot.signal('SIGTERM');
		expect(await bot.exited).toBe(0);

		// Started again with resumeOnStart on: no journal shows an unfinished job, so nothing goes on.
		bot = await spawnBot(box, dataDir, { readyText: 'there is nothing to resume' });
		await answerTo(control, box, 'status', /no journal shows an unfinished one/);
		expect(bot.output()).not.toContain('job resumed after a restart');
		expect(memberPatches((await control.requests(killedAt)).requests)).toEqual([]);
	});
});

describe('what resumes nothing', () => {
	let sandbox: Sandbox | undefined;
	let dataDir = '';

	afterEach(async () => {
		await sandbox?.close();
		if (dataDir) await rm(dataDir, { recursive: true, force: true });
		sandbox = undefined;
	});

	/** A sandbox, and a data folder holding an interrupted journal of the operator's (what `massnick run` killed mid-run leaves). */
	async function interruptedRunJob(): Promise<Sandbox> {
		sandbox = await startSandbox({ members: 60, workers: 2, seed: 38, timeScale: 100 });
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-noresume-'));
		const journal = await Journal.create(dataDir, {
			jobId: '20260101T030000Z-nickname-1',
			guildId: sandbox.guildId,
			action: 'nickname',
			target: 'Cli {username}',
			title: 'Renaming to “Cli {username}”',
			onlyRoleId: null,
			excludeRoleId: null,
			startedBy: { id: '0', tag: 'cli:ops' },
			startedAt: new Date().toISOString(),
			workers: 2,
		});
		await journal.close();
		return sandbox;
	}

	it('a job massnick run started is left to the scheduler that reruns it, and the log says so', async () => {
		const box = await interruptedRunJob();
		const stack = await startMassnickOn(box, dataDir, box.workerTokens);
		try {
			const { lastSeq } = await stack.control.requests();
			expect(await stack.massnick.resume()).toBeUndefined();
			expect(stack.logs()).toContain('the interrupted job was started by massnick run, which a scheduler reruns');
			expect(stack.massnick.jobs.current).toBeUndefined();
			expect(memberPatches((await stack.control.requests(lastSeq)).requests)).toEqual([]);
		} finally {
			await stack.close();
		}
	});

	it('an interrupted job another job ran after is not resumed: the newer one took its place', async () => {
		const box = await interruptedRunJob();
		// The interrupted job was a slash command's, an hour ago; another job finished since.
		const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
		await writeRunRecord(dataDir, box.guildId, '20260101T030000Z-nickname-1', {
			startedBy: { id: box.ownerId, tag: 'owner' },
			rank: { kind: 'owner', userId: box.ownerId },
			startedAt: hourAgo,
			resumes: [],
		});
		const newer = await Journal.create(dataDir, {
			jobId: '20260101T040000Z-nickname-2',
			guildId: box.guildId,
			action: 'nickname',
			target: 'Newer {username}',
			title: 'Renaming to “Newer {username}”',
			onlyRoleId: null,
			excludeRoleId: null,
			startedBy: { id: box.ownerId, tag: 'owner' },
			startedAt: hourAgo,
			workers: 2,
		});
		await newer.markFinished();
		await newer.close();
		const stack = await startMassnickOn(box, dataDir, box.workerTokens);
		try {
			expect(await stack.massnick.resume()).toBeUndefined();
			expect(stack.logs()).toContain('another job ran after the interrupted one, so it is not resumed');
		} finally {
			await stack.close();
		}
	});

	it('a boss holding no worker (WORKER_IDS=none) resumes nothing and says where jobs run', async () => {
		const box = await interruptedRunJob();
		const stack = await startMassnickOn(box, dataDir, box.workerTokens, (config) => ({ ...config, heldWorkers: [] }));
		try {
			expect(await stack.massnick.resume()).toBeUndefined();
			expect(stack.logs()).toContain(
				'holds none of the workers (WORKER_IDS=none), so it resumes nothing: jobs run, and are rerun, in the processes holding the workers',
			);
		} finally {
			await stack.close();
		}
	});
});
