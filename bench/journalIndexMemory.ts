/**
 * What reading a journal back costs at guild scale, each phase in a process of its own so one
 * does not inherit the other's heap:
 *
 * - `listing`: the baseline, walking the listing in id order and nothing else: what a job's
 *   process holds without a journal to read, for the others to be read against;
 * - `restore`: what `/restore` does (`JobJournal.restoreLookup`): finds the file's ordered runs,
 *   then walks the whole listing in id order asking each member's entry, as the restore's plan does;
 * - `open`: what a job continued after a crash does (`Journal.open`): finds the runs too, then
 *   walks the listing asking each member's original, as the job's plan does;
 * - `loadIndex`: the whole-file index `/restore` loaded before it merged runs (about 41 bytes a
 *   member: leave it out at 100,000,000).
 *
 * Run it compiled, as production runs (`npm run bench:journal -- …`): under tsx the loader alone
 * adds some 30 MB to every phase.
 *
 * ```
 * npm run bench:journal -- [members] [phase,phase…] [--keep DIR]   # default 1,000,000, every phase
 * ```
 *
 * `--keep DIR` writes the journal in DIR and leaves it there; the next run with as many members
 * reads it again instead of writing it (7 GB and many minutes at 100,000,000).
 *
 * Writes a synthetic journal of `members` originals to a temporary directory (about 70 bytes a
 * line: 700 MB at 10,000,000, 7 GB at 100,000,000), streaming, and deletes it at the end. It is
 * in the order a job of 10 workers writes: ids ascending (snowflakes of 2015 to 2025, from a
 * seeded generator the restore phase replays as its listing), each page of 1,000 handed to the
 * workers by id and journaled in random batches of each worker's, so the workers' lines
 * interleave; one member in 1,000 is a joiner, journaled with a random id among them. 20% of
 * members have a ~10-character nickname (`from`), every `to` is `🎃 ` and a ~10-character name,
 * all different, the worst case for deduplicating names.
 *
 * Retained memory is the growth of `heapUsed + arrayBuffers` (typed arrays live outside the V8
 * heap, so `heapUsed` alone would flatter them) after a full GC, with the index still referenced.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Journal, loadIndex, openRestoreLookup, originalLine } from '../src/jobs/index.js';
import { workerIndexOf } from '../src/workers/partition.js';
import { describeMachine } from './describeMachine.js';
import { benchResultsFile } from './paths.js';

const GUILD = '175928847299117063';
const JOB = 'bench';
const WORKERS = 10;
const PHASES = ['listing', 'restore', 'open', 'loadIndex'] as const;
type Phase = (typeof PHASES)[number];

interface PhaseResult {
	phase: Phase;
	entries: number;
	loadSeconds: number;
	retainedBytes: number;
	rssGrowthBytes: number;
	peakRssBytes: number;
	lookupNs: number;
}

async function main(members: number, phases: readonly Phase[], keptDir: string | undefined): Promise<void> {
	if (!Number.isInteger(members) || members < 1) throw new Error(`members must be a positive integer, not ${members}`);
	const loadAverageAtStart = loadavg()[0]!;
	const dataDir = keptDir ?? (await mkdtemp(join(tmpdir(), 'massnick-journal-bench-')));
	try {
		const started = performance.now();
		const kept = keptDir === undefined ? undefined : await readKept(dataDir, members);
		const path = kept ?? (await writeJournal(dataDir, members));
		const { size } = await stat(path);
		if (kept) console.log(`reused ${members.toLocaleString('en')} originals (${(size / 1e6).toFixed(0)} MB) in ${dataDir}`);
		else console.log(`wrote ${members.toLocaleString('en')} originals (${(size / 1e6).toFixed(0)} MB) in ${seconds(started)} s`);
		console.log('phase      entries     load s  retained B/entry  RSS growth B/entry  peak RSS MB  lookup ns');
		const results: PhaseResult[] = [];
		for (const phase of phases) {
			const result = await runChild(phase, dataDir, members);
			results.push(result);
			console.log(
				[
					phase.padEnd(9),
					result.entries.toLocaleString('en').padStart(10),
					result.loadSeconds.toFixed(1).padStart(9),
					(result.retainedBytes / result.entries).toFixed(1).padStart(17),
					(result.rssGrowthBytes / result.entries).toFixed(1).padStart(19),
					(result.peakRssBytes / 1e6).toFixed(0).padStart(12),
					result.lookupNs.toFixed(0).padStart(10),
				].join(' '),
			);
		}
		await recordResults(members, size, results, loadAverageAtStart);
	} finally {
		if (keptDir === undefined) await rm(dataDir, { recursive: true, force: true });
	}
}

/** Where the figures go, a run per guild size: `bench/results-journal.json`. */
const RESULTS = benchResultsFile('results-journal.json');

/** Notes this run's figures in {@link RESULTS} under its guild size, beside those of other sizes. */
async function recordResults(members: number, journalBytes: number, phases: readonly PhaseResult[], loadAverageAtStart: number): Promise<void> {
	const file = await readFile(RESULTS, 'utf8').then(
		(text) => JSON.parse(text) as { runs: Record<string, unknown> },
		() => ({ runs: {} }),
	);
	const runs = { ...file.runs, [members]: { date: new Date().toISOString(), machine: describeMachine(loadAverageAtStart), journalBytes, phases } };
	const results = {
		benchmark: 'massnick npm run bench:journal (issue #27): what reading a journal back costs, each phase in a process of its own',
		method:
			'a synthetic journal written in the order a job of 10 workers writes (a page of 1,000 ids handed out by worker, batches interleaved, one joiner in 1,000), compiled code on plain node; peak RSS is VmHWM of the phase’s process, retained the growth of heapUsed + arrayBuffers after a full GC with the reader still referenced; listing walks the ids alone, restore and open walk them asking each member’s entry, then 10,000 ids from the file’s first MB out of order',
		runs: Object.fromEntries(Object.entries(runs).sort(([a], [b]) => Number(a) - Number(b))),
	};
	await writeFile(RESULTS, `${JSON.stringify(results, null, 1)}\n`);
}

/**
 * The journal a run with `--keep DIR` wrote there for as many members, if it is whole: its size is
 * noted beside it once written, so a run cut short writes it again.
 */
async function readKept(dataDir: string, members: number): Promise<string | undefined> {
	const path = Journal.pathOf(dataDir, GUILD, JOB);
	const noted = await readFile(keptNote(dataDir), 'utf8').catch(() => undefined);
	const size = await stat(path).then(
		(file) => file.size,
		() => undefined,
	);
	if (noted === `${members} ${size}`) return path;
	await rm(join(dataDir, GUILD), { recursive: true, force: true });
	await rm(keptNote(dataDir), { force: true });
	return undefined;
}

function keptNote(dataDir: string): string {
	return join(dataDir, 'members-and-bytes.txt');
}

async function writeJournal(dataDir: string, members: number): Promise<string> {
	const journal = await Journal.create(dataDir, {
		jobId: JOB,
		guildId: GUILD,
		action: 'nickname',
		target: '🎃 {display_name}',
		title: 'Renaming to “🎃 {display_name}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'bench' },
		startedAt: new Date().toISOString(),
		workers: 10,
	});
	await journal.close();
	const out = createWriteStream(journal.path, { flags: 'a' });
	const rand = random(2);
	let chunk = '';
	let page: string[] = [];
	const flush = async (): Promise<void> => {
		// Each worker's part of the page, in id order, journaled in batches that interleave.
		const parts = Array.from({ length: WORKERS }, () => [] as string[]);
		for (const id of page) parts[workerIndexOf(id, WORKERS)]!.push(id);
		for (let left = page.length; left > 0; ) {
			const part = parts[Math.floor(rand() * WORKERS)]!;
			for (let n = 1 + Math.floor(rand() * 50); n > 0 && part.length > 0; n--, left--) chunk += synthetic(part.shift()!, rand);
			// About one joiner a page, among a worker's batches.
			if (rand() < 0.04) chunk += synthetic(randomSnowflake(rand), rand);
		}
		page = [];
		if (chunk.length > 1 << 20) {
			if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
			chunk = '';
		}
	};
	for (const id of listing(members)) {
		page.push(id);
		if (page.length === 1000) await flush();
	}
	await flush();
	await new Promise<void>((resolve, reject) => out.end(chunk, () => resolve()).once('error', reject));
	await writeFile(keptNote(dataDir), `${members} ${(await stat(journal.path)).size}`);
	return journal.path;
}

function synthetic(id: string, rand: () => number): string {
	return originalLine({ id, from: rand() < 0.2 ? randomName(rand) : null, to: `🎃 ${randomName(rand)}` });
}

/** The guild's members in id order, the same on every call: the journal's job listed them so, and the restore phase lists them again. */
function* listing(members: number): Generator<string> {
	const rand = random(1);
	const step = (Date.UTC(2025, 0, 1) - Date.UTC(2015, 0, 1)) / members;
	// From a month into 2015: an earlier id has fewer than 17 digits, which no member id has.
	let ms = 3e9;
	for (let n = 0; n < members; n++) {
		ms += 1 + Math.floor(rand() * (2 * step - 1));
		yield ((BigInt(ms) << 22n) | BigInt(Math.floor(rand() * (1 << 22)))).toString();
	}
}

function randomSnowflake(rand: () => number): string {
	const ms = BigInt(3e9 + Math.floor(rand() * (Date.UTC(2025, 0, 1) - Date.UTC(2015, 0, 1))));
	return ((ms << 22n) | BigInt(Math.floor(rand() * (1 << 22)))).toString();
}

/** A seeded generator (mulberry32), so the listing can be replayed. */
function random(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';

function randomName(rand: () => number): string {
	let name = '';
	for (let length = 6 + Math.floor(rand() * 9); length > 0; length--) name += LETTERS[Math.floor(rand() * LETTERS.length)];
	return name;
}

/** Runs one phase in a fresh process with the same loader (tsx) as this one. */
function runChild(phase: Phase, dataDir: string, members: number): Promise<PhaseResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--phase', phase, dataDir, String(members)], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		let output = '';
		child.stdout.setEncoding('utf8').on('data', (data: string) => (output += data));
		child.once('error', reject);
		child.once('exit', (code) => {
			if (code === 0) resolve(JSON.parse(output.trim().split('\n').pop()!) as PhaseResult);
			else reject(new Error(`phase ${phase} exited with ${code}`));
		});
	});
}

async function measurePhase(phase: Phase, dataDir: string, members: number): Promise<PhaseResult> {
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;
	const path = Journal.pathOf(dataDir, GUILD, JOB);
	const sample = await sampleIds(path);
	gc();
	const before = process.memoryUsage();
	const started = performance.now();
	let lookup: (id: string) => unknown;
	let entries: number;
	let release = async (): Promise<void> => undefined;
	if (phase === 'listing') {
		let walked = 0;
		for (const id of listing(members)) if (id.length > 0) walked++;
		lookup = (id) => id;
		entries = walked;
	} else if (phase === 'restore') {
		// The restore's own access: every listed member, in id order, then the sampled lookups
		// below, out of order like joiners.
		const lookupIndex = await openRestoreLookup([path], WORKERS);
		let found = 0;
		for (const id of listing(members)) if (lookupIndex.get(id) !== undefined) found++;
		if (found < members * 0.99) throw new Error(`the restore found ${found} of ${members} listed members`);
		lookup = (id) => lookupIndex.get(id);
		entries = found;
		release = async () => lookupIndex.close();
	} else if (phase === 'open') {
		const journal = await Journal.open(dataDir, GUILD, JOB);
		let found = 0;
		for (const id of listing(members)) if (journal.originalOf(id) !== undefined) found++;
		if (found < members * 0.99) throw new Error(`the continued job found ${found} of ${members} listed members journaled`);
		lookup = (id) => journal.originalOf(id);
		entries = journal.size;
		release = () => journal.close();
	} else {
		const index = await loadIndex(path);
		lookup = (id) => index.get(id);
		entries = index.size;
	}
	const loadSeconds = Number(seconds(started));
	gc();
	const after = process.memoryUsage();
	// Out of order, as joiners come: a binary search each where the file is read by its runs.
	const lookups = phase === 'restore' || phase === 'open' ? 10_000 : 1_000_000;
	const lookupStarted = performance.now();
	let found = 0;
	for (let n = 0; n < lookups; n++) if (lookup(sample[n % sample.length]!) !== undefined) found++;
	const lookupNs = ((performance.now() - lookupStarted) * 1e6) / lookups;
	if (found !== lookups) throw new Error(`only ${found} of ${lookups} sampled ids were found`);
	const peak = /^VmHWM:\s+(\d+)\s+kB$/m.exec(await readFile('/proc/self/status', 'utf8'));
	await release();
	return {
		phase,
		entries,
		loadSeconds,
		retainedBytes: after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers),
		rssGrowthBytes: after.rss - before.rss,
		peakRssBytes: Number(peak?.[1] ?? 0) * 1024,
		lookupNs,
	};
}

/** Ids from the first MB of the journal, to time lookups of ids that are there. */
async function sampleIds(path: string): Promise<string[]> {
	const handle = await open(path, 'r');
	try {
		const buffer = Buffer.alloc(1 << 20);
		const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
		return [
			...buffer
				.subarray(0, bytesRead)
				.toString('utf8')
				.matchAll(/"type":"original","id":"(\d+)"/g),
		].map((match) => match[1]!);
	} finally {
		await handle.close();
	}
}

function seconds(since: number): string {
	return ((performance.now() - since) / 1000).toFixed(1);
}

// Last, so every constant above is initialised when it runs.
const keepAt = process.argv.indexOf('--keep');
const keptDir = keepAt === -1 ? undefined : process.argv[keepAt + 1];
if (keepAt !== -1 && (keptDir === undefined || keptDir.startsWith('--')))
	throw new Error('--keep takes the folder to keep the journal in, to be reused by the next run with as many members');
if (keptDir !== undefined) await mkdir(keptDir, { recursive: true });
const [first, second, third, fourth] = process.argv.slice(2).filter((_, n, args) => args[n] !== '--keep' && args[n - 1] !== '--keep');
if (first === '--phase') {
	const result = await measurePhase(second as Phase, third!, Number(fourth));
	process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
	const phases = second === undefined ? PHASES : (second.split(',') as Phase[]);
	const unknown = phases.filter((phase) => !PHASES.includes(phase));
	if (unknown.length > 0) throw new Error(`unknown phase ${unknown.join(', ')}: the phases are ${PHASES.join(', ')}`);
	await main(first === undefined ? 1_000_000 : Number(first.replaceAll('_', '')), phases, keptDir);
}
