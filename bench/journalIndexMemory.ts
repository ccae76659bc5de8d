/**
 * What the journal's two in-memory indexes cost at guild scale: `Journal.open` (the originals a
 * rename job keeps) and `loadIndex` (what `/restore` keeps), each measured in a process of its own
 * so one does not inherit the other's heap.
 *
 * ```
 * npx tsx bench/journalIndexMemory.ts [members]     # default 1,000,000
 * ```
 *
 * Writes a synthetic journal of `members` originals to a temporary directory (about 70 bytes a
 * line: 700 MB at 10,000,000), deletes it at the end. Ids are random snowflakes of 2015 to 2025,
 * 20% of members have a ~10-character nickname (`from`), every `to` is `🎃 ` and a ~10-character
 * name, all different, the worst case for deduplicating names.
 *
 * Retained memory is the growth of `heapUsed + arrayBuffers` (typed arrays live outside the V8
 * heap, so `heapUsed` alone would flatter them) after a full GC, with the index still referenced.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Journal, loadIndex, originalLine } from '../src/jobs/index.js';

const GUILD = '175928847299117063';
const JOB = 'bench';
const PHASES = ['open', 'loadIndex'] as const;
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

async function main(members: number): Promise<void> {
	if (!Number.isInteger(members) || members < 1) throw new Error(`members must be a positive integer, not ${members}`);
	const dataDir = await mkdtemp(join(tmpdir(), 'massnick-journal-bench-'));
	try {
		const started = performance.now();
		const path = await writeJournal(dataDir, members);
		const { size } = await stat(path);
		console.log(`wrote ${members.toLocaleString('en')} originals (${(size / 1e6).toFixed(0)} MB) in ${seconds(started)} s`);
		console.log('phase      entries     load s  retained B/entry  RSS growth B/entry  peak RSS MB  lookup ns');
		for (const phase of PHASES) {
			const result = await runChild(phase, dataDir);
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
	} finally {
		await rm(dataDir, { recursive: true, force: true });
	}
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
	const from2015 = Date.UTC(2015, 0, 1);
	const span = Date.UTC(2025, 0, 1) - from2015;
	let chunk = '';
	for (let n = 0; n < members; n++) {
		const ms = BigInt(Math.floor(Math.random() * span));
		const id = ((ms << 22n) | BigInt(Math.floor(Math.random() * (1 << 22)))).toString();
		chunk += originalLine({ id, from: Math.random() < 0.2 ? randomName() : null, to: `🎃 ${randomName()}` });
		if (chunk.length > 1 << 20) {
			if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
			chunk = '';
		}
	}
	await new Promise<void>((resolve, reject) => out.end(chunk, () => resolve()).once('error', reject));
	return journal.path;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_';

function randomName(): string {
	let name = '';
	for (let length = 6 + Math.floor(Math.random() * 9); length > 0; length--) name += LETTERS[Math.floor(Math.random() * LETTERS.length)];
	return name;
}

/** Runs one phase in a fresh process with the same loader (tsx) as this one. */
function runChild(phase: Phase, dataDir: string): Promise<PhaseResult> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--phase', phase, dataDir], {
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

async function measurePhase(phase: Phase, dataDir: string): Promise<PhaseResult> {
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
	if (phase === 'open') {
		const journal = await Journal.open(dataDir, GUILD, JOB);
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
	const lookups = 1_000_000;
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
const [first, second, third] = process.argv.slice(2);
if (first === '--phase') {
	const result = await measurePhase(second as Phase, third!);
	process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
	await main(first === undefined ? 1_000_000 : Number(first.replaceAll('_', '')));
}
