import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ControlMember, ControlRole, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../src/workers/partition.js';
import { type BotLogEntry, botLogEntries, type LogMessages } from './botLogEntries.js';
import { NodeChild } from './NodeChild.js';
import { benchResultsFile, CONFIG_DIR, EVENT_LOOP_PROBE, MAIN_SCRIPT } from './paths.js';
import { percentile } from './percentile.js';
import { readEventLoopDelay } from './readEventLoopDelay.js';
import { readJournals } from './readJournals.js';
import { SandboxProcess } from './SandboxProcess.js';

/**
 * `npm run soak`: a day on a live guild, compressed. One massnick process (restarted as systemd
 * would) renames a 200,000-member guild, reruns after a revoked token, and restores it, while a
 * seeded schedule of faults, printed first, comes at it: 5xx bursts, latency past
 * `rest.timeoutMs`, gateway drops with op 7 for every bot, members joining, leaving and renaming
 * themselves the whole time, a moderator moving a role above the workers, SIGKILLs with the
 * restart under 5xx, the journal's disk filling up, and a worker's token revoked. Then a /massrole
 * gives a new role to everyone, and a moderator moves that role above the workers and, once the
 * job is run again, deletes it. The invariants are measured from the sandbox's guild and request
 * log, the journal and the bot's log, printed, and written to bench/results-soak.json; when one
 * fails, the work dir (logs, journals) is kept and its path printed.
 *
 *   npm run soak [-- --members 200000 --workers 10 --time-scale 50 --seed 20261201]
 */
const { values } = parseArgs({
	options: {
		members: { type: 'string', default: '200000' },
		workers: { type: 'string', default: '10' },
		'time-scale': { type: 'string', default: '50' },
		seed: { type: 'string', default: '20261201' },
	},
});
const MEMBERS = Number(values.members);
const WORKERS = Number(values.workers);
const TIME_SCALE = Number(values['time-scale']);
const SEED = Number(values.seed);
const NAME = 'Soak {id}';
const MEMBER_PATCH = '/guilds/:id/members/:id';
const ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';
/**
 * How far past its size the journal may grow once the disk is "full" (`ulimit -f`): at about 90
 * bytes an original, some 2,800 more members, a moment of the job at any size.
 */
const DISK_FULL_MARGIN_KIB = 256;
/** The repository's settings: what each worker can have on the wire (`workers.maxInFlight`) and the REST time-out. */
const SETTINGS = JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as { workers: { maxInFlight: number }; rest: { timeoutMs: number } };
const IN_FLIGHT = SETTINGS.workers.maxInFlight;

/** mulberry32: a small seeded generator, so the same seed gives the same schedule. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
const random = seeded(SEED);

type Fault =
	| '5xx burst'
	| 'latency past rest.timeoutMs'
	| 'gateway drop and op 7'
	| 'role moved above the workers'
	| 'SIGKILL, restart under 5xx'
	| 'SIGKILL, restart with the journal disk full'
	| 'worker token revoked'
	| 'its role moved above the workers'
	| 'its role deleted';
/**
 * Each fault at a share of the rename job done; the restore gets a burst and a kill of its own;
 * the /massrole its own burst and drop, and its role moved out of reach, then deleted. The
 * later faults are drawn after the first ones, so a seed keeps the schedule it had before them.
 */
const FAULTS: Fault[] = [
	'5xx burst',
	'5xx burst',
	'5xx burst',
	'latency past rest.timeoutMs',
	'gateway drop and op 7',
	'gateway drop and op 7',
	'role moved above the workers',
	'SIGKILL, restart under 5xx',
	'SIGKILL, restart under 5xx',
	'SIGKILL, restart under 5xx',
];
const plan = [...FAULTS.map((fault) => ({ at: 0.05 + random() * 0.7, fault })), { at: 0.85, fault: 'worker token revoked' as Fault }].sort(
	(a, b) => a.at - b.at,
);
const restorePlan = [
	{ at: 0.2 + random() * 0.3, fault: '5xx burst' as Fault },
	{ at: 0.5 + random() * 0.3, fault: 'SIGKILL, restart under 5xx' as Fault },
];
plan.push({ at: 0.05 + random() * 0.6, fault: 'SIGKILL, restart with the journal disk full' });
plan.sort((a, b) => a.at - b.at);
// Early in the /massrole, so the phase stays short: the job stops at the delete, and the guild is not given the role at all.
const massrolePlan = [
	{ at: 0.02 + random() * 0.1, fault: '5xx burst' as Fault },
	{ at: 0.02 + random() * 0.1, fault: 'gateway drop and op 7' as Fault },
	{ at: 0.12 + random() * 0.08, fault: 'its role moved above the workers' as Fault },
	{ at: 0.22 + random() * 0.13, fault: 'its role deleted' as Fault },
].sort((a, b) => a.at - b.at);

const say = (line: string): void => void process.stdout.write(`${line}\n`);
say(`soak: ${MEMBERS.toLocaleString('en')} members, ${WORKERS} workers, time scale ${TIME_SCALE}, seed ${SEED}`);
say(`  always: members join (3/s), leave (2/s) and rename themselves (1/s)`);
say(`  rename: ${plan.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ')}; then the rerun without the revoked token`);
say(`  restore: ${restorePlan.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ')}`);
say(`  massrole: ${massrolePlan.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ')} (after the move, the operator runs it again)`);

const workDir = await mkdtemp(join(tmpdir(), 'massnick-soak-'));
const logDir = join(workDir, 'logs');
const dataDir = join(workDir, 'data');
// Children left by a soak that stopped on an error go with it.
process.on('exit', NodeChild.killAll);
say(`  work dir: ${workDir} (kept when an invariant fails or the soak stops on an error)`);
await mkdir(logDir, { recursive: true });
await mkdir(join(workDir, 'config'), { recursive: true });
const settings = JSON.parse(await readFile(join(CONFIG_DIR, 'massnick.json'), 'utf8')) as Record<string, unknown>;
await writeFile(
	join(workDir, 'config', 'massnick.json'),
	JSON.stringify({ ...settings, preview: { timeoutSeconds: 300, skipBelowMembers: 100_000_000 } }, null, 2),
);

const started = Date.now();
const sandbox = await SandboxProcess.start({
	members: MEMBERS,
	workers: WORKERS,
	timeScale: TIME_SCALE,
	seed: SEED % 100_000,
	logDir,
	startTimeoutMs: 120_000,
});
const { control, info } = sandbox;
const guildId = info.guildId;
const guildDir = join(dataDir, guildId);

/** Fault intervals in wall-clock ms, for the fault-free stretches' share of the ceiling. */
const faultTimes: Array<{ from: number; to: number }> = [];
const markFault = (ms: number): void => void faultTimes.push({ from: Date.now(), to: Date.now() + ms });

interface Incarnation {
	child: NodeChild;
	tokens: readonly string[];
	startedAt: number;
	endedAt?: number;
	probe: string;
	rss: Array<{ at: number; mb: number }>;
	peakMb: number;
}
const incarnations: Incarnation[] = [];
let tokens = info.workerTokens.slice(0, WORKERS);

/** Starts massnick as `npm start` does; `fileSizeLimitKiB`: under that `ulimit -f`, a disk about to fill up. */
async function startBot(options: { fileSizeLimitKiB?: number } = {}): Promise<Incarnation> {
	const n = incarnations.length;
	const probe = join(logDir, `eventloop-${n}.jsonl`);
	const child = new NodeChild({
		name: `massnick #${n}`,
		script: MAIN_SCRIPT,
		args: ['start'],
		nodeArgs: ['--import', pathToFileURL(EVENT_LOOP_PROBE).href],
		cwd: workDir,
		env: {
			BOSS_TOKEN: info.bossToken,
			WORKER_TOKENS: tokens.join(','),
			GUILD_ID: guildId,
			DISCORD_API_URL: info.apiUrl,
			MASSNICK_DATA_DIR: dataDir,
			LOG_LEVEL: 'info',
			MASSNICK_BENCH_EVENT_LOOP_FILE: probe,
			// Run under tsx, its cache of compiled files would meet the limit too: the bot's own files are what is tried.
			...(options.fileSizeLimitKiB === undefined ? {} : { TSX_DISABLE_CACHE: '1' }),
		},
		logFile: join(logDir, `massnick-${n}.log`),
		...options,
	});
	await child.waitForLine((line) => line.includes('"msg":"massnick is ready"'), 300_000, 'that it is ready');
	const incarnation: Incarnation = { child, tokens, startedAt: Date.now(), probe, rss: [], peakMb: 0 };
	incarnations.push(incarnation);
	return incarnation;
}

async function rssMb(pid: number): Promise<{ now: number; peak: number } | undefined> {
	try {
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		const now = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1]) / 1024;
		const peak = Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1]) / 1024;
		return { now, peak };
	} catch {
		return undefined;
	}
}

let bot = await startBot();
const sampler = setInterval(async () => {
	const current = bot;
	const read = await rssMb(current.child.pid);
	if (!read) return;
	current.rss.push({ at: Date.now(), mb: read.now });
	current.peakMb = Math.max(current.peakMb, read.peak);
}, 2000);

/** The guild as it is, and who may be renamed: not a bot, not the owner, every role below the workers'. */
async function guildNow(): Promise<{ members: ControlMember[]; below: (member: ControlMember) => boolean }> {
	const [members, state] = await Promise.all([control.members(guildId), control.state()]);
	const position = new Map(state.roles.map((role) => [role.id, role.position]));
	const bots = state.roles.find((role) => role.name === 'Massnick')!.position;
	const below = (member: ControlMember): boolean => !member.bot && member.id !== info.ownerId && member.roles.every((role) => (position.get(role) ?? 0) < bots);
	return { members, below };
}
const before = new Map((await control.members(guildId)).map((member) => [member.id, member.nick]));
const joined = new Set<string>();
const left = new Map<string, number>();
const ownNick = new Set<string>();
const everyoneIds = [...before.keys()];

// The guild's own life, the whole time.
let living = true;
const life = (async () => {
	for (let tick = 0; living; tick++) {
		try {
			for (const id of (await control.addMembers(guildId, 3)).ids) joined.add(id);
			for (let n = 0; n < 2; n++) {
				const id = everyoneIds[Math.floor(random() * everyoneIds.length)]!;
				if (left.has(id) || id === info.ownerId || !before.has(id)) continue;
				await control.removeMember(guildId, id).catch(() => {});
				left.set(id, (await control.requests(0, 1)).lastSeq);
			}
			const id = everyoneIds[Math.floor(random() * everyoneIds.length)]!;
			if (!left.has(id) && id !== info.ownerId) {
				await control.setOwnNick(guildId, id, `Own ${tick}`).catch(() => {});
				ownNick.add(id);
			}
		} catch {
			// The control API answers even under faults; a failed tick is skipped.
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
})();

const roleMoves: Array<{ seq: number; back?: number; holders: number }> = [];
let phase: 'rename' | 'restore' | 'massrole' = 'rename';
const kills: number[] = [];
let revokedWorker: number | undefined;
/** Why the bot did not resume the job after a restart, each time, so the operator ran the command again. */
const notResumed: string[] = [];
/** How many jobs had ended before the rename's own end: the one the full disk stopped. */
let endsBeforeRenameEnd = 0;
/** The full disk: the limit, and how the job it stopped ended, as the bot's log says. */
let diskFull: { journalKiB: number; limitKiB: number; state: string; message: string } | undefined;
/** The /massrole's role, and where its move and delete fell in the request log, with how the job ended each time. */
let jobRole: ControlRole | undefined;
let jobRoleMoved: { seq: number; back: number; state: string; message: string } | undefined;
let jobRoleDeleted: { seq: number; state: string; message: string } | undefined;

/** The bot's log lines with these messages, over every process it ran as (or those of `from`), in order. */
const botLog = (messages: LogMessages, from: readonly Incarnation[] = incarnations): Promise<BotLogEntry[]> =>
	botLogEntries(
		from.map((incarnation) => incarnation.child.logFile),
		messages,
	);

/** How each job the bot ran ended ("job ended"), with why when it failed ("job failed"), in order. */
async function jobEnds(): Promise<Array<{ state: string; message: string }>> {
	const failures = new Map<string, string>();
	const ends: Array<{ state: string; message: string }> = [];
	for (const entry of await botLog({ is: ['job failed', 'job ended'] })) {
		const job = String(entry.job);
		if (entry.msg === 'job failed') failures.set(job, entry.err?.message ?? '');
		else {
			ends.push({ state: String(entry.state), message: failures.get(job) ?? '' });
			failures.delete(job);
		}
	}
	return ends;
}

/**
 * After a restart: the interrupted job goes on by itself (a job started in the new process's log
 * before anyone asked), or the bot says why it is not resumed (resumed too often in a short time,
 * which it takes for a crash loop; a /restore it leaves to the operator); then the operator runs
 * `command` again, and the journal makes it go on where it stopped.
 */
async function resumeOrRerun(command: string, options: Record<string, unknown>): Promise<void> {
	const incarnation = bot;
	const outcome = await waitForValue(
		async () => (await botLog({ is: ['job started'], contains: ['not resumed', 'could not resume'] }, [incarnation]))[0],
		'the bot to say whether it resumed the job',
		120_000,
	).catch(() => undefined);
	if (outcome?.msg === 'job started') return;
	const why = String(outcome?.reason ?? outcome?.msg ?? 'it said nothing of the job');
	notResumed.push(why);
	say(`    not resumed (${why}); the operator runs /${command} again`);
	await operatorRuns(command, options);
}

/**
 * The operator runs a command that starts a job, and runs it again when no job started (its
 * interaction lost to a fault on the way: Discord gives a bot 3 s to answer), as a person would.
 */
async function operatorRuns(command: string, options: Record<string, unknown>): Promise<void> {
	const started = async (): Promise<number> => (await botLog({ is: ['job started'] }, [bot])).length;
	for (let attempt = 1; ; attempt++) {
		const before = await started();
		await control.invoke(guildId, info.ownerId, command, options, info.channelId);
		const ran = await waitFor(async () => (await started()) > before, `/${command} to start a job`, 60_000).then(
			() => true,
			() => false,
		);
		if (ran) return;
		if (attempt === 3) throw new Error(`soak: /${command} started no job in ${attempt} tries (see ${bot.child.logFile})`);
		say(`    /${command} started no job; the operator runs it again`);
	}
}

async function runFault(fault: Fault): Promise<void> {
	say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] ${fault}`);
	if (fault === '5xx burst') {
		markFault(5000);
		await control.faults({ errorRate: 0.3 });
		await new Promise((resolve) => setTimeout(resolve, 5000));
		await control.faults({ errorRate: 0 });
	} else if (fault === 'latency past rest.timeoutMs') {
		const ms = SETTINGS.rest.timeoutMs + 1000;
		markFault(ms + 4000);
		await control.faults({ latencyMs: ms });
		await new Promise((resolve) => setTimeout(resolve, 3000));
		await control.faults({ latencyMs: 0 });
	} else if (fault === 'gateway drop and op 7') {
		markFault(3000);
		await control.faults({ closeGateway: {} });
		await control.faults({ reconnect: {} });
	} else if (fault === 'role moved above the workers') {
		// The busiest member role: many members are out of reach at once, then back within it.
		const state = await control.state();
		const role = state.roles.find((candidate) => candidate.name === 'Level 10')!;
		const massnick = state.roles.find((candidate) => candidate.name === 'Massnick')!;
		const holders = (await control.members(guildId)).filter((member) => member.roles.includes(role.id)).length;
		const { lastSeq } = await control.requests(0, 1);
		markFault(10_000);
		await control.editRole(guildId, role.id, { position: massnick.position + 1 });
		const move: { seq: number; back?: number; holders: number } = { seq: lastSeq, holders };
		roleMoves.push(move);
		await new Promise((resolve) => setTimeout(resolve, 10_000));
		move.back = (await control.requests(0, 1)).lastSeq;
		await control.editRole(guildId, role.id, { position: role.position });
	} else if (fault === 'SIGKILL, restart under 5xx') {
		markFault(15_000);
		kills.push((await control.requests(0, 1)).lastSeq);
		bot.endedAt = Date.now();
		await bot.child.kill();
		await control.faults({ errorRate: 0.15 });
		bot = await startBot();
		await control.faults({ errorRate: 0 });
		if (phase === 'restore') await resumeOrRerun('restore', {});
		else await resumeOrRerun('massnick', { name: NAME });
	} else if (fault === 'SIGKILL, restart with the journal disk full') {
		// The disk fills up while the process is down: it comes back with room for a few thousand
		// more originals (`ulimit -f`, so the kernel refuses the write past it), and the job must stop.
		const from = Date.now();
		kills.push((await control.requests(0, 1)).lastSeq);
		bot.endedAt = Date.now();
		await bot.child.kill();
		const journalKiB = Math.ceil((await readJournals(guildDir)).largestBytes / 1024);
		const limitKiB = journalKiB + DISK_FULL_MARGIN_KIB;
		const endsBefore = (await jobEnds()).length;
		bot = await startBot({ fileSizeLimitKiB: limitKiB });
		say(`    journal ${journalKiB} KiB, files limited to ${limitKiB} KiB`);
		await resumeOrRerun('massnick', { name: NAME });
		const end = await waitForValue(async () => (await jobEnds())[endsBefore], 'the job to stop on the full disk', 1_800_000);
		diskFull = { journalKiB, limitKiB, ...end };
		say(`    the job ${end.state}: ${end.message || '(no error logged)'}`);
		// Space freed: the process restarted without the limit, as the operator would once the disk has room.
		bot.endedAt = Date.now();
		await bot.child.stop(15_000);
		bot = await startBot();
		say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] space freed, restarted`);
		await resumeOrRerun('massnick', { name: NAME });
		endsBeforeRenameEnd = (await jobEnds()).length;
		faultTimes.push({ from, to: Date.now() });
	} else if (fault === 'worker token revoked') {
		revokedWorker = WORKERS - 1;
		markFault(5000);
		await control.faults({ revokeToken: { appId: sandbox.workerIds[revokedWorker] } });
	} else if (fault === 'its role moved above the workers') {
		// A moderator moves the /massrole's role above the workers: the job stops; moved back, the operator runs it again.
		const massnick = (await control.state()).roles.find((candidate) => candidate.name === 'Massnick')!;
		const endsBefore = (await jobEnds()).length;
		const seq = (await control.requests(0, 1)).lastSeq;
		await control.editRole(guildId, jobRole!.id, { position: massnick.position + 1 });
		const end = await waitForValue(async () => (await jobEnds())[endsBefore], 'the /massrole to stop at its role moved', 600_000);
		jobRoleMoved = { seq, back: (await control.requests(0, 1)).lastSeq, ...end };
		say(`    the job ${end.state}: ${end.message || '(no error logged)'}`);
		await control.editRole(guildId, jobRole!.id, { position: 1 });
		await operatorRuns('massrole add', { role: jobRole!.id });
	} else if (fault === 'its role deleted') {
		const endsBefore = (await jobEnds()).length;
		const seq = (await control.requests(0, 1)).lastSeq;
		await control.deleteRole(guildId, jobRole!.id);
		const end = await waitForValue(async () => (await jobEnds())[endsBefore], 'the /massrole to stop at its role deleted', 600_000);
		jobRoleDeleted = { seq, ...end };
		say(`    the job ${end.state}: ${end.message || '(no error logged)'}`);
	}
}

/** The request log, read as it grows (the sandbox keeps the last 500,000 entries only). */
const log: SandboxRequest[] = [];
let cursor = (await control.requests(0, 1)).lastSeq;
async function readLog(): Promise<void> {
	for (;;) {
		const page = await control.requests(cursor, 50_000);
		if (page.requests.length === 0) return;
		log.push(...page.requests);
		cursor = page.requests.at(-1)!.seq;
	}
}
const isRename = (request: SandboxRequest): boolean => request.method === 'PATCH' && request.route === MEMBER_PATCH && request.status === 200;
const isRoleGiven = (request: SandboxRequest): boolean => request.method === 'PUT' && request.route === ROLE_ROUTE && request.status === 204;
const changesSince = async (seq: number, isChange = isRename): Promise<number> => {
	await readLog();
	return log.filter((request) => request.seq > seq && isChange(request)).length;
};
const isRenamed = (member: ControlMember): boolean => member.nick === `Soak ${member.id}`;

/** `read`'s first value that is not `undefined`, read once a second. */
async function waitForValue<T>(read: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`soak: timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}
async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
	await waitForValue(async () => ((await check()) ? true : undefined), what, timeoutMs);
}

await readLog();
const jobStart = cursor;
const jobStartedAt = Date.now();
const eligible = await (async () => {
	const { members, below } = await guildNow();
	return members.filter(below).length;
})();
await operatorRuns('massnick', { name: NAME });
for (const { at, fault } of plan) {
	await waitFor(async () => (await changesSince(jobStart)) >= at * eligible, `${Math.round(at * 100)}% renamed`, 3_600_000);
	await runFault(fault);
}
await waitFor(async () => (await jobEnds()).length > endsBeforeRenameEnd, 'the rename job to end', 3_600_000);
const renameEndState = (await jobEnds())[endsBeforeRenameEnd]!.state;
say(
	`  [${((Date.now() - started) / 1000).toFixed(0)} s] rename ended (${(await jobEnds()).map((end) => end.state).join(', ')}); the operator reruns without the revoked token`,
);
// The guild's life stops with the first job: the rerun, the checks and the restore then see a
// guild that holds still, so a member who joined after the last job has not been left out by it.
living = false;
await life;
// The operator's rerun: the token taken out of WORKER_TOKENS, the process restarted, the same command.
bot.endedAt = Date.now();
await bot.child.stop(15_000);
tokens = tokens.filter((_, index) => index !== revokedWorker);
bot = await startBot();
const endsBeforeRerun = (await jobEnds()).length;
await operatorRuns('massnick', { name: NAME });
await waitFor(async () => (await jobEnds()).length > endsBeforeRerun, 'the rerun to end', 3_600_000);
const renamedAt = Date.now();
await readLog();
const renameEnd = cursor;
// The rename's journal as it stands: the /massrole later writes one of its own beside it.
const renameJournals = await readJournals(guildDir);

const { members: afterRename, below } = await guildNow();
const notRenamed = afterRename.filter((member) => below(member) && !ownNick.has(member.id) && !isRenamed(member));
say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] renamed; ${notRenamed.length} eligible members not renamed; /restore`);

const endsBeforeRestore = (await jobEnds()).length;
phase = 'restore';
await readLog();
const restoreStart = cursor;
await operatorRuns('restore', {});
const restoreTotal = afterRename.filter(isRenamed).length;
for (const { at, fault } of restorePlan) {
	await waitFor(async () => (await changesSince(restoreStart)) >= at * restoreTotal, `${Math.round(at * 100)}% restored`, 3_600_000);
	await runFault(fault);
}
await waitFor(async () => (await jobEnds()).length > endsBeforeRestore, 'the restore to end', 3_600_000);
// A change out of its tries under the 5xx is counted failed and keeps the journal open: the
// operator runs /restore again, as for the rename.
let restoreReruns = 0;
const notBack = async (): Promise<number> =>
	(await control.members(guildId)).filter((member) => before.has(member.id) && !ownNick.has(member.id) && member.nick !== before.get(member.id)).length;
while ((await notBack()) > 0 && restoreReruns < 2) {
	restoreReruns++;
	const ends = (await jobEnds()).length;
	await operatorRuns('restore', {});
	await waitFor(async () => (await jobEnds()).length > ends, 'the restore rerun to end', 600_000);
}
// Originals: every member the journal holds, back to what they had before, unless they renamed themselves since.
const notRestored = (await control.members(guildId)).filter(
	(member) => before.has(member.id) && !ownNick.has(member.id) && member.nick !== before.get(member.id),
).length;

// The /massrole: a new role to everyone under the same faults, until a moderator moves it above the
// workers (the job stops; moved back, the operator runs it again) and then deletes it.
say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] restored; /massrole add of a new role`);
phase = 'massrole';
await readLog();
const massroleStart = cursor;
jobRole = await control.createRole(guildId, { name: 'Soak role', position: 1 });
const massroleTotal = (await control.members(guildId)).filter((member) => !member.bot).length;
await operatorRuns('massrole add', { role: jobRole.id });
for (const { at, fault } of massrolePlan) {
	await waitFor(async () => (await changesSince(massroleStart, isRoleGiven)) >= at * massroleTotal, `${Math.round(at * 100)}% given the role`, 3_600_000);
	await runFault(fault);
}
const massroleEndedAt = Date.now();
bot.endedAt = Date.now();
clearInterval(sampler);
await bot.child.stop(15_000);

// What the sandbox saw.
await readLog();
const requests = log.filter((request) => request.seq > jobStart);
const workerIndexOfBot = (request: SandboxRequest): { index: number; count: number } | undefined => {
	// Each incarnation's workers are its WORKER_TOKENS, in order; the request's time says which one.
	const incarnation = incarnations.find(
		(candidate) => request.at >= candidate.startedAt - 60_000 && request.at <= (candidate.endedAt ?? Number.POSITIVE_INFINITY),
	);
	if (!incarnation) return undefined;
	const index = incarnation.tokens.findIndex((token) => sandbox.workerIds[info.workerTokens.indexOf(token)] === request.botUserId);
	return index === -1 ? undefined : { index, count: incarnation.tokens.length };
};
const changes = requests.filter((request) => isRename(request) && request.targetId);
const renames = changes.filter((request) => request.seq <= renameEnd);
const given = requests.filter((request) => isRoleGiven(request) && request.targetId);
const wrongWorker = [...changes, ...given].filter((request) => {
	const owner = workerIndexOfBot(request);
	return owner !== undefined && owner.index !== workerIndexOf(request.targetId!, owner.count);
});
const perMember = new Map<string, number>();
for (const request of renames) perMember.set(request.targetId!, (perMember.get(request.targetId!) ?? 0) + 1);
// A member who renamed themselves after the job renamed them is renamed again by a rerun, as the
// done marker says: not a duplicate. What may go out twice is what was on the wire at each kill
// and at each latency spike past the time-out (Discord may have applied a request the client gave
// up on), at the revoked token, and at the full disk's stop.
const twice = [...perMember].filter(([id, count]) => count > 1 && !ownNick.has(id)).length;
const spikes = [...plan, ...restorePlan].filter(({ fault }) => fault === 'latency past rest.timeoutMs').length;
const twiceBound = (kills.length + spikes + (diskFull ? 1 : 0) + 1) * WORKERS * IN_FLIGHT;
const afterLeaving = changes.filter((request) => left.has(request.targetId!) && request.seq > left.get(request.targetId!)!).length;
const rateLimited = requests.filter((request) => request.status === 429 && request.scope !== 'shared').length;
const forbiddenAfterMoves = roleMoves.map(
	(move) => requests.filter((request) => request.status === 403 && request.seq > move.seq && request.seq <= (move.back ?? Number.POSITIVE_INFINITY)).length,
);
// What is in flight when a change is refused for every member alike: one request a worker at most
// (Discord's role event stops the job first), and never more than every worker's maxInFlight.
const inFlightBound = WORKERS * IN_FLIGHT;
// No change without its journal line: each member renamed has an original, written before the PATCH.
const unjournaled = renames.filter((request) => !renameJournals.originals.has(request.targetId!)).length;
const between = (from: number, to: number) => (request: SandboxRequest) => request.seq > from && request.seq <= to;
const notFoundIn = (from: number, to: number): SandboxRequest[] => requests.filter((request) => request.status === 404).filter(between(from, to));
const deletedAt = jobRoleDeleted?.seq ?? Number.POSITIVE_INFINITY;
// Every 404 by phase. On a member's change one is expected only for a member who left (a request
// on the wire as they go) and for the /massrole's role once deleted; any other is a bug. (Other
// routes' 404s, such as an interaction answered too late under latency, are counted, not held.)
const notFound404s = {
	rename: notFoundIn(jobStart, renameEnd).length,
	restore: notFoundIn(renameEnd, massroleStart).length,
	massrole: notFoundIn(massroleStart, deletedAt).length,
	afterRoleDeleted: notFoundIn(deletedAt, Number.POSITIVE_INFINITY).length,
};
const notFoundNotLeft = notFoundIn(jobStart, deletedAt).filter(
	(request) => (request.route === MEMBER_PATCH || request.route === ROLE_ROUTE) && !(request.targetId && left.has(request.targetId)),
).length;
const forbiddenAfterJobRoleMove = jobRoleMoved
	? requests.filter((request) => request.status === 403).filter(between(jobRoleMoved.seq, jobRoleMoved.back)).length
	: null;
const diskFullStopped =
	diskFull !== undefined &&
	diskFull.state === 'failed' &&
	/Writing the journal .+\.jsonl failed \(EFBIG\), so the job stopped: no member is changed without their original on disk\./.test(diskFull.message) &&
	diskFull.message.includes(guildDir) &&
	diskFull.message.includes('then run the same command again');
const roleStop = (end: { state: string; message: string } | undefined, words: string): boolean =>
	end !== undefined && (end.state === 'failed' || end.state === 'cancelled') && end.message.includes(`@${jobRole!.name}`) && end.message.includes(words);
const stoppedAtMove = roleStop(jobRoleMoved, "is now at or above the workers' highest role");
const stoppedAtDelete = roleStop(jobRoleDeleted, 'was deleted while the job ran, so it stopped');
// Share of the ceiling over the fault-free stretches of the first job: seconds with no fault active.
// 10 per 10 s per token, scaled; but discord.js holds each client to 50 requests a second of its
// own (@discordjs/rest's globalRequestsPerSecond, not scaled), which past time scale 50 is lower.
const ceilingPerSecond = WORKERS * Math.min((10 * TIME_SCALE) / 10, 50);
const bySecond = new Map<number, number>();
for (const request of renames) {
	const second = Math.floor(request.at / 1000);
	bySecond.set(second, (bySecond.get(second) ?? 0) + 1);
}
const quiet = [...bySecond.keys()]
	.filter((second) => second * 1000 > jobStartedAt + 10_000 && (second + 1) * 1000 < renamedAt - 30_000)
	.filter((second) => !faultTimes.some(({ from, to }) => (second + 1) * 1000 > from && second * 1000 < to + 10_000))
	.filter((second) => (second + 1) * 1000 < (incarnations.find((incarnation) => incarnation.tokens.length < WORKERS)?.startedAt ?? Number.POSITIVE_INFINITY));
const quietShare = quiet.length === 0 ? null : quiet.reduce((sum, second) => sum + bySecond.get(second)!, 0) / quiet.length / ceilingPerSecond;
// Memory: the longest incarnation's RSS after its first 30 s, by least squares.
const longest = [...incarnations].sort((a, b) => b.endedAt! - b.startedAt - (a.endedAt! - a.startedAt))[0]!;
const samples = longest.rss.filter((sample) => sample.at > longest.startedAt + 30_000);
const slope = (() => {
	if (samples.length < 3) return null;
	const mx = samples.reduce((sum, s) => sum + s.at, 0) / samples.length;
	const my = samples.reduce((sum, s) => sum + s.mb, 0) / samples.length;
	const num = samples.reduce((sum, s) => sum + (s.at - mx) * (s.mb - my), 0);
	const den = samples.reduce((sum, s) => sum + (s.at - mx) ** 2, 0);
	return (num / den) * 60_000;
})();
const loop = await Promise.all(
	incarnations.map((incarnation) => readEventLoopDelay(incarnation.probe, incarnation.startedAt, incarnation.endedAt ?? Date.now())),
);
const p99s = loop.flatMap((delay) => (delay ? [delay.p99Ms] : []));
const discordHours = ((massroleEndedAt - jobStartedAt) * TIME_SCALE) / 3_600_000;

const result = {
	benchmark: 'massnick npm run soak (issue #18)',
	date: new Date().toISOString(),
	seed: SEED,
	machine: { cpus: cpus().length, node: process.version },
	setup: { members: MEMBERS, workers: WORKERS, timeScale: TIME_SCALE, maxInFlight: IN_FLIGHT, ceilingPerSecond },
	schedule: { rename: plan, restore: restorePlan, massrole: massrolePlan, always: 'members join 3/s, leave 2/s, rename themselves 1/s' },
	durationSeconds: Math.round((Date.now() - started) / 1000),
	discordHours: Math.round(discordHours * 10) / 10,
	invariants: {
		notRenamedAtEnd: notRenamed.length,
		originalsLost: notRestored,
		changedTwice: twice,
		changedTwiceBound: twiceBound,
		changesByWrongWorker: wrongWorker.length,
		changesAfterLeaving: afterLeaving,
		forbiddenAfterRoleMoves: forbiddenAfterMoves,
		forbiddenBound: inFlightBound,
		roleMoveHolders: roleMoves.map((move) => move.holders),
		notFound404s,
		memberNotFound404sNotOfLeavers: notFoundNotLeft,
		rateLimited429sOutsideShared: rateLimited,
		diskFull: {
			stoppedWithMessage: diskFullStopped,
			message: diskFull?.message ?? null,
			unjournaledChanges: unjournaled,
			finishedAfterFreeing: renameEndState === 'finished',
		},
		massroleRoleChanges: {
			stoppedAtMoveWithMessage: stoppedAtMove,
			moveMessage: jobRoleMoved?.message ?? null,
			forbiddenAfterMove: forbiddenAfterJobRoleMove,
			stoppedAtDeleteWithMessage: stoppedAtDelete,
			deleteMessage: jobRoleDeleted?.message ?? null,
			notFoundAfterDelete: notFound404s.afterRoleDeleted,
			bound: inFlightBound,
		},
	},
	figures: {
		changes: changes.length,
		renames: renames.length,
		roleGiven: given.length,
		kills: kills.length,
		notResumed,
		restoreReruns,
		joined: joined.size,
		left: left.size,
		renamedThemselves: ownNick.size,
		diskFullLimitKiB: diskFull?.limitKiB ?? null,
		peakRssMb: Math.round(Math.max(...incarnations.map((incarnation) => incarnation.peakMb))),
		rssSlopeMbPerMinute: slope === null ? null : Math.round(slope * 100) / 100,
		rssSlopeOver: { incarnation: incarnations.indexOf(longest), minutes: Math.round((longest.endedAt! - longest.startedAt) / 600) / 100 },
		eventLoopP99Ms: p99s.length === 0 ? null : Math.max(...p99s),
		eventLoopP99MedianMs: percentile(
			[...p99s].sort((a, b) => a - b),
			50,
		),
		journalBytesPerChangedMember: renameJournals.originals.size === 0 ? null : Math.round(renameJournals.bytes / renameJournals.originals.size),
		shareOfCeilingFaultFree: quietShare === null ? null : Math.round(quietShare * 10_000) / 10_000,
		faultFreeSeconds: quiet.length,
	},
};
say(JSON.stringify(result.invariants));
say(JSON.stringify(result.figures));
await writeFile(benchResultsFile('results-soak.json'), `${JSON.stringify(result, null, 2)}\n`);
say(`written to bench/results-soak.json (${result.durationSeconds} s, about ${result.discordHours} h of Discord's windows)`);
await sandbox.stop();
const failed =
	notRenamed.length > 0 ||
	notRestored > 0 ||
	wrongWorker.length > 0 ||
	afterLeaving > 0 ||
	rateLimited > 0 ||
	twice > twiceBound ||
	forbiddenAfterMoves.some((count) => count > inFlightBound) ||
	notFoundNotLeft > 0 ||
	!diskFullStopped ||
	unjournaled > 0 ||
	renameEndState !== 'finished' ||
	!stoppedAtMove ||
	forbiddenAfterJobRoleMove === null ||
	forbiddenAfterJobRoleMove > inFlightBound ||
	!stoppedAtDelete ||
	notFound404s.afterRoleDeleted > inFlightBound;
if (failed) {
	say(`soak: an invariant does not hold (see above); the logs and journals are kept in ${workDir}`);
	process.exitCode = 1;
} else {
	await rm(workDir, { recursive: true, force: true });
}
