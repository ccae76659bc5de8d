import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Random } from '@massnick/discord-sandbox';
import { NodeChild } from '../NodeChild.js';
import { benchResultsFile } from '../paths.js';
import { SandboxProcess } from '../SandboxProcess.js';
import { GuildLife } from './GuildLife.js';
import { measureSoak } from './measure.js';
import { SOAK_USAGE, soakOptions } from './options.js';
import { runPhases } from './phases.js';
import { RequestLogReader } from './RequestLogReader.js';
import { describeSchedule, soakSchedule } from './schedule.js';
import { type Soak, say } from './Soak.js';
import { SoakBots } from './SoakBots.js';
import { brokenInvariants } from './verdict.js';

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
 *
 * What happens when is schedule.ts; how each fault is brought about, faults.ts; the checks,
 * invariants.ts and verdict.ts.
 */
const options = await soakOptions(process.argv.slice(2)).catch((error: Error) => {
	console.error(`${error.message}\n\n${SOAK_USAGE}`);
	return process.exit(2);
});
// The sandbox's own seeded generator: the same seed gives the same schedule and the same guild life.
const random = new Random(options.seed);
const schedule = soakSchedule(random);
say(`soak: ${options.members.toLocaleString('en')} members, ${options.workers} workers, time scale ${options.timeScale}, seed ${options.seed}`);
for (const line of describeSchedule(schedule)) say(line);

const workDir = await mkdtemp(join(tmpdir(), 'massnick-soak-'));
const logDir = join(workDir, 'logs');
const dataDir = join(workDir, 'data');
// Children left by a soak that stopped on an error go with it.
process.on('exit', NodeChild.killAll);
say(`  work dir: ${workDir} (kept when an invariant fails or the soak stops on an error)`);
await mkdir(logDir, { recursive: true });
await mkdir(join(workDir, 'config'), { recursive: true });
await writeFile(
	join(workDir, 'config', 'massnick.json'),
	JSON.stringify({ ...options.settings, preview: { timeoutSeconds: 300, skipBelowMembers: 100_000_000 } }, null, 2),
);

const started = Date.now();
const sandbox = await SandboxProcess.start({
	members: options.members,
	workers: options.workers,
	timeScale: options.timeScale,
	seed: options.seed % 100_000,
	logDir,
	startTimeoutMs: 120_000,
});
const { control, info } = sandbox;
const bots = new SoakBots({ info, workDir, logDir, dataDir, tokens: info.workerTokens.slice(0, options.workers) });
await bots.start();
bots.startSampling();
const before = new Map((await control.members(info.guildId)).map((member) => [member.id, member.nick]));
const life = new GuildLife(control, info, before, random);
const soak: Soak = {
	options,
	sandbox,
	control,
	info,
	guildDir: join(dataDir, info.guildId),
	bots,
	log: await RequestLogReader.from(control),
	record: { faultTimes: [], roleMoves: [], kills: [], notResumed: [], endsBeforeRenameEnd: 0 },
	phase: 'rename',
	started,
};

const marks = await runPhases(soak, schedule, life, before);
const result = await measureSoak(soak, schedule, life, marks);
say(JSON.stringify(result.invariants));
say(JSON.stringify(result.figures));
await writeFile(benchResultsFile('results-soak.json'), `${JSON.stringify(result, null, 2)}\n`);
say(`written to bench/results-soak.json (${result.durationSeconds} s, about ${result.discordHours} h of Discord's windows)`);
await sandbox.stop();
if (brokenInvariants(result.invariants).length > 0) {
	say(`soak: an invariant does not hold (see above); the logs and journals are kept in ${workDir}`);
	process.exitCode = 1;
} else {
	await rm(workDir, { recursive: true, force: true });
}
