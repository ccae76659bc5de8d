import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ControlMember, SandboxRequest } from '@massnick/discord-sandbox';
import { workerIndexOf } from '../src/workers/partition.js';
import { NodeChild } from './NodeChild.js';
import { benchResultsFile, CONFIG_DIR, EVENT_LOOP_PROBE, MAIN_SCRIPT } from './paths.js';
import { percentile } from './percentile.js';
import { readEventLoopDelay } from './readEventLoopDelay.js';
import { SandboxProcess } from './SandboxProcess.js';

/**
 * `npm run soak`: a day on a live guild, compressed. One massnick process (restarted as systemd
 * would) renames a 200,000-member guild, reruns after a revoked token, and restores it, while a
 * seeded schedule of faults, printed first, comes at it: 5xx bursts, latency past
 * `rest.timeoutMs`, gateway drops with op 7 for every bot, members joining, leaving and renaming
 * themselves the whole time, a moderator moving a role above the workers, SIGKILLs with the
 * restart under 5xx, and a worker's token revoked. The invariants are measured from the sandbox's
 * guild and request log and the journal, printed, and written to bench/results-soak.json.
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
	| 'worker token revoked';
/** Each fault at a share of the rename job done; the restore gets a burst and a kill of its own. */
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

const say = (line: string): void => void process.stdout.write(`${line}\n`);
say(`soak: ${MEMBERS.toLocaleString('en')} members, ${WORKERS} workers, time scale ${TIME_SCALE}, seed ${SEED}`);
say(`  always: members join (3/s), leave (2/s) and rename themselves (1/s)`);
say(`  rename: ${plan.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ')}; then the rerun without the revoked token`);
say(`  restore: ${restorePlan.map(({ at, fault }) => `${Math.round(at * 100)}% ${fault}`).join('; ')}`);

const workDir = await mkdtemp(join(tmpdir(), 'massnick-soak-'));
const logDir = join(workDir, 'logs');
const dataDir = join(workDir, 'data');
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

async function startBot(): Promise<Incarnation> {
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
		},
		logFile: join(logDir, `massnick-${n}.log`),
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
let phase: 'rename' | 'restore' = 'rename';
const kills: number[] = [];
let revokedWorker: number | undefined;

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
		// A job resumes by itself; an interrupted /restore waits for the operator to run it again.
		if (phase === 'restore') await control.invoke(guildId, info.ownerId, 'restore', {}, info.channelId);
	} else if (fault === 'worker token revoked') {
		revokedWorker = WORKERS - 1;
		markFault(5000);
		await control.faults({ revokeToken: { appId: sandbox.workerIds[revokedWorker] } });
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
const changesSince = async (seq: number): Promise<number> => {
	await readLog();
	return log.filter((request) => request.seq > seq && request.method === 'PATCH' && request.route === MEMBER_PATCH && request.status === 200).length;
};
const isRenamed = (member: ControlMember): boolean => member.nick === `Soak ${member.id}`;

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`soak: timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** The jobs the bot said ended ("job ended"), over every process it ran as, with their end states. */
const endStates = async (): Promise<string[]> => {
	const states: string[] = [];
	for (const name of (await readdir(logDir)).filter((file) => file.startsWith('massnick-'))) {
		for (const line of (await readFile(join(logDir, name), 'utf8')).split('\n')) {
			if (line.includes('"msg":"job ended"')) states.push((JSON.parse(line) as { state: string }).state);
		}
	}
	return states;
};

await readLog();
const jobStart = cursor;
const jobStartedAt = Date.now();
const eligible = await (async () => {
	const { members, below } = await guildNow();
	return members.filter(below).length;
})();
await control.invoke(guildId, info.ownerId, 'massnick', { name: NAME }, info.channelId);
for (const { at, fault } of plan) {
	await waitFor(async () => (await changesSince(jobStart)) >= at * eligible, `${Math.round(at * 100)}% renamed`, 3_600_000);
	await runFault(fault);
}
await waitFor(async () => (await endStates()).length >= 1, 'the rename job to end', 3_600_000);
say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] rename ended (${(await endStates()).join(', ')}); the operator reruns without the revoked token`);
// The guild's life stops with the first job: the rerun, the checks and the restore then see a
// guild that holds still, so a member who joined after the last job has not been left out by it.
living = false;
await life;
// The operator's rerun: the token taken out of WORKER_TOKENS, the process restarted, the same command.
bot.endedAt = Date.now();
await bot.child.stop(15_000);
tokens = tokens.filter((_, index) => index !== revokedWorker);
bot = await startBot();
const endsBeforeRerun = (await endStates()).length;
await control.invoke(guildId, info.ownerId, 'massnick', { name: NAME }, info.channelId);
await waitFor(async () => (await endStates()).length > endsBeforeRerun, 'the rerun to end', 3_600_000);
const renamedAt = Date.now();
await readLog();
const renameEnd = cursor;

const { members: afterRename, below } = await guildNow();
const notRenamed = afterRename.filter((member) => below(member) && !ownNick.has(member.id) && !isRenamed(member));
say(`  [${((Date.now() - started) / 1000).toFixed(0)} s] renamed; ${notRenamed.length} eligible members not renamed; /restore`);

const endsBeforeRestore = (await endStates()).length;
phase = 'restore';
await readLog();
const restoreStart = cursor;
await control.invoke(guildId, info.ownerId, 'restore', {}, info.channelId);
const restoreTotal = afterRename.filter(isRenamed).length;
for (const { at, fault } of restorePlan) {
	await waitFor(async () => (await changesSince(restoreStart)) >= at * restoreTotal, `${Math.round(at * 100)}% restored`, 3_600_000);
	await runFault(fault);
}
await waitFor(async () => (await endStates()).length > endsBeforeRestore, 'the restore to end', 3_600_000);
// A change out of its tries under the 5xx is counted failed and keeps the journal open: the
// operator runs /restore again, as for the rename.
let restoreReruns = 0;
const notBack = async (): Promise<number> =>
	(await control.members(guildId)).filter((member) => before.has(member.id) && !ownNick.has(member.id) && member.nick !== before.get(member.id)).length;
while ((await notBack()) > 0 && restoreReruns < 2) {
	restoreReruns++;
	const ends = (await endStates()).length;
	await control.invoke(guildId, info.ownerId, 'restore', {}, info.channelId);
	await waitFor(async () => (await endStates()).length > ends, 'the restore rerun to end', 600_000);
}
const restoredAt = Date.now();
bot.endedAt = Date.now();
clearInterval(sampler);
await bot.child.stop(15_000);

// What the sandbox saw.
await readLog();
const requests = log.filter((request) => request.seq > jobStart);
const { members: afterRestore } = await guildNow();
const workerIndexOfBot = (request: SandboxRequest): { index: number; count: number } | undefined => {
	// Each incarnation's workers are its WORKER_TOKENS, in order; the request's time says which one.
	const incarnation = incarnations.find(
		(candidate) => request.at >= candidate.startedAt - 60_000 && request.at <= (candidate.endedAt ?? Number.POSITIVE_INFINITY),
	);
	if (!incarnation) return undefined;
	const index = incarnation.tokens.findIndex((token) => sandbox.workerIds[info.workerTokens.indexOf(token)] === request.botUserId);
	return index === -1 ? undefined : { index, count: incarnation.tokens.length };
};
const changes = requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_PATCH && request.status === 200 && request.targetId);
const renames = changes.filter((request) => request.seq <= renameEnd);
const wrongWorker = changes.filter((request) => {
	const owner = workerIndexOfBot(request);
	return owner !== undefined && owner.index !== workerIndexOf(request.targetId!, owner.count);
});
const perMember = new Map<string, number>();
for (const request of renames) perMember.set(request.targetId!, (perMember.get(request.targetId!) ?? 0) + 1);
// A member who renamed themselves after the job renamed them is renamed again by a rerun, as the
// done marker says: not a duplicate. What may go out twice is what was on the wire at each kill
// and at each latency spike past the time-out (Discord may have applied a request the client gave
// up on), and at the revoked token.
const twice = [...perMember].filter(([id, count]) => count > 1 && !ownNick.has(id)).length;
const spikes = [...plan, ...restorePlan].filter(({ fault }) => fault === 'latency past rest.timeoutMs').length;
const twiceBound = (kills.length + spikes + 1) * WORKERS * IN_FLIGHT;
const afterLeaving = changes.filter((request) => left.has(request.targetId!) && request.seq > left.get(request.targetId!)!).length;
const rateLimited = requests.filter((request) => request.status === 429 && request.scope !== 'shared').length;
const forbiddenAfterMoves = roleMoves.map(
	(move) => requests.filter((request) => request.status === 403 && request.seq > move.seq && request.seq <= (move.back ?? Number.POSITIVE_INFINITY)).length,
);
const notFound = requests.filter((request) => request.status === 404).length;
// Originals: every member the journal holds, back to what they had before, unless they renamed themselves since.
const notRestored = afterRestore.filter((member) => before.has(member.id) && !ownNick.has(member.id) && member.nick !== before.get(member.id)).length;
let journalBytes = 0;
let originals = 0;
for (const name of (await readdir(join(dataDir, guildId))).filter((file) => file.endsWith('.jsonl'))) {
	journalBytes += (await stat(join(dataDir, guildId, name))).size;
	originals += (await readFile(join(dataDir, guildId, name), 'utf8')).split('\n').filter((line) => line.includes('"type":"original"')).length;
}
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
const discordHours = ((restoredAt - jobStartedAt) * TIME_SCALE) / 3_600_000;

const result = {
	benchmark: 'massnick npm run soak (issue #18)',
	date: new Date().toISOString(),
	seed: SEED,
	machine: { cpus: cpus().length, node: process.version },
	setup: { members: MEMBERS, workers: WORKERS, timeScale: TIME_SCALE, maxInFlight: IN_FLIGHT, ceilingPerSecond },
	schedule: { rename: plan, restore: restorePlan, always: 'members join 3/s, leave 2/s, rename themselves 1/s' },
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
		forbiddenBound: WORKERS * IN_FLIGHT,
		roleMoveHolders: roleMoves.map((move) => move.holders),
		notFound404s: notFound,
		rateLimited429sOutsideShared: rateLimited,
	},
	figures: {
		changes: changes.length,
		renames: renames.length,
		kills: kills.length,
		restoreReruns,
		joined: joined.size,
		left: left.size,
		renamedThemselves: ownNick.size,
		peakRssMb: Math.round(Math.max(...incarnations.map((incarnation) => incarnation.peakMb))),
		rssSlopeMbPerMinute: slope === null ? null : Math.round(slope * 100) / 100,
		rssSlopeOver: { incarnation: incarnations.indexOf(longest), minutes: Math.round((longest.endedAt! - longest.startedAt) / 600) / 100 },
		eventLoopP99Ms: p99s.length === 0 ? null : Math.max(...p99s),
		eventLoopP99MedianMs: percentile(
			[...p99s].sort((a, b) => a - b),
			50,
		),
		journalBytesPerChangedMember: originals === 0 ? null : Math.round(journalBytes / originals),
		shareOfCeilingFaultFree: quietShare === null ? null : Math.round(quietShare * 10_000) / 10_000,
		faultFreeSeconds: quiet.length,
	},
};
say(JSON.stringify(result.invariants));
say(JSON.stringify(result.figures));
await writeFile(benchResultsFile('results-soak.json'), `${JSON.stringify(result, null, 2)}\n`);
say(`written to bench/results-soak.json (${result.durationSeconds} s, about ${result.discordHours} h of Discord's windows)`);
await sandbox.stop();
await rm(workDir, { recursive: true, force: true });
const failed =
	notRenamed.length > 0 ||
	notRestored > 0 ||
	wrongWorker.length > 0 ||
	afterLeaving > 0 ||
	rateLimited > 0 ||
	twice > twiceBound ||
	forbiddenAfterMoves.some((count) => count > WORKERS * IN_FLIGHT);
if (failed) {
	say('soak: an invariant does not hold (see above)');
	process.exitCode = 1;
}
