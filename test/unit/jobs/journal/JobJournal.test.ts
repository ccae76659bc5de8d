import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes, JournalError } from '../../../../src/errors.js';
import { JobJournal, type JournalHolding } from '../../../../src/jobs/journal/JobJournal.js';
import { Journal, type JournalHeaderInput } from '../../../../src/jobs/journal/Journal.js';
import type { RestoreEntry } from '../../../../src/jobs/Plan.js';
import { workerIndexOf } from '../../../../src/workers/partition.js';
import { codeOf } from '../../../support/journalErrorCode.js';
import { chooseFleetScope } from '../../../../src/workers/chooseFleetScope.js';

const GUILD = '175928847299117063';
const N = 3;
const ALL: JournalHolding = chooseFleetScope(N, [0, 1, 2]);

let dirs: string[] = [];
const newDir = (): string => {
	const dir = mkdtempSync(join(tmpdir(), 'massnick-jobjournal-'));
	dirs.push(dir);
	return dir;
};
let dataDir: string;
beforeEach(() => {
	dataDir = newDir();
});
afterEach(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	dirs = [];
});

function header(jobId: string, workers = N): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: 'x {username}',
		title: 'Renaming to “x {username}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'alice' },
		startedAt: '2026-01-01T00:00:00.000Z',
		workers,
	};
}

/** Member i: a snowflake made at millisecond 10^11 + i, so owners go round the workers. */
function memberId(i: number): string {
	return String((100_000_000_000n + BigInt(i)) << 22n);
}

const entries = (count: number): RestoreEntry[] => Array.from({ length: count }, (_, i) => ({ id: memberId(i), from: `old ${i}`, to: `x ${i}` }));
const files = (dir: string): string[] => readdirSync(join(dir, GUILD)).sort();
const originalIds = (path: string): string[] =>
	readFileSync(path, 'utf8')
		.trimEnd()
		.split('\n')
		.map((line) => JSON.parse(line) as { type: string; id?: string })
		.filter((record) => record.type === 'original')
		.map((record) => record.id!);

describe('JobJournal', () => {
	it('a process holding every worker keeps one file per job, the layout from before fleets', async () => {
		const journal = await JobJournal.create(dataDir, header('job1'), ALL);
		await journal.recordOriginals(entries(30));
		await journal.mark('finished', () => ({ changed: 30 }));
		await journal.close();
		expect(files(dataDir)).toEqual(['job1.jsonl']);
		expect(journal.paths).toEqual([Journal.pathOf(dataDir, GUILD, 'job1')]);
		const [summary] = await JobJournal.list(dataDir, GUILD, ALL);
		expect(summary).toMatchObject({ state: 'finished', counts: { changed: 30 } });
	});

	it('a journal written before fleets opens, appends and restores as it did', async () => {
		const old = await Journal.create(dataDir, header('old-job', 10));
		await old.recordOriginals(entries(5));
		await old.close();
		const holding = chooseFleetScope(4, [0, 1, 2, 3]);
		const [summary] = await JobJournal.list(dataDir, GUILD, holding);
		const journal = await JobJournal.open(dataDir, summary!, holding);
		expect(journal.originalOf(memberId(2))).toBe('old 2');
		await journal.recordOriginals([{ id: memberId(2), from: 'newer', to: 'x' }, ...entries(8).slice(5)]);
		expect((await journal.loadIndex()).get(memberId(2))?.from).toBe('old 2');
		await journal.close();
		expect(files(dataDir)).toEqual(['old-job.jsonl']);
	});

	it('a member who had no value before the job reads back as null, not as never journaled, in one file or per worker', async () => {
		for (const [jobId, holding] of [
			['whole', ALL],
			['split', chooseFleetScope(N, [0, 1])],
		] as const) {
			const journal = await JobJournal.create(dataDir, header(jobId), holding);
			const held = entries(6).filter((entry) => holding.keepsJournalOf(workerIndexOf(entry.id, N)) || jobId === 'whole');
			await journal.recordOriginals(held.map((entry) => ({ ...entry, from: null })));
			for (const entry of held) expect(journal.originalOf(entry.id)).toBeNull();
			expect(journal.originalOf(memberId(99))).toBeUndefined();
			await journal.close();
		}
	});

	it('a process holding some workers keeps a file per worker, each with its own members only', async () => {
		const journal = await JobJournal.create(dataDir, header('job1'), chooseFleetScope(N, [0, 2]));
		const held = entries(60).filter((entry) => workerIndexOf(entry.id, N) !== 1);
		await journal.recordOriginals(held);
		await journal.mark('finished', (workerId) => ({ worker: workerId ?? -1 }));
		await journal.close();
		expect(files(dataDir)).toEqual(['job1.w0.jsonl', 'job1.w2.jsonl']);
		for (const workerId of [0, 2]) {
			const ids = originalIds(Journal.pathOf(dataDir, GUILD, 'job1', workerId));
			expect(ids.length).toBeGreaterThan(0);
			expect(ids.every((id) => workerIndexOf(id, N) === workerId)).toBe(true);
		}
		// Each file keeps the counts of its own worker.
		const [summary] = await JobJournal.list(dataDir, GUILD, chooseFleetScope(N, [0, 2]));
		expect(summary!.files.map((file) => file.counts)).toEqual([{ worker: 0 }, { worker: 2 }]);
		expect(summary!.counts).toEqual({ worker: 2 });
	});

	it('a member of a worker the process does not hold is refused, and nothing of the batch is lost silently', async () => {
		const journal = await JobJournal.create(dataDir, header('job1'), chooseFleetScope(N, [0]));
		const other = entries(10).find((entry) => workerIndexOf(entry.id, N) === 1)!;
		expect(await codeOf(journal.recordOriginals([other]))).toBe(ErrorCodes.InvalidArgument);
		await journal.close();
	});

	it('a fleet process sees only its own workers’ files, and a job is running while any of them is', async () => {
		const a = await JobJournal.create(dataDir, header('job1'), chooseFleetScope(N, [0, 1]));
		await a.mark('finished', () => undefined);
		await a.close();
		const b = await JobJournal.create(dataDir, header('job1'), chooseFleetScope(N, [2]));
		await b.close();
		// Another process's file, in a shared folder: not this process's to read or mark.
		expect((await JobJournal.list(dataDir, GUILD, chooseFleetScope(N, [0, 1]))).map((job) => [job.state, job.files.length])).toEqual([['finished', 2]]);
		expect((await JobJournal.list(dataDir, GUILD, chooseFleetScope(N, [2]))).map((job) => job.state)).toEqual(['running']);
		// A process holding every worker sees the job whole.
		expect((await JobJournal.list(dataDir, GUILD, ALL)).map((job) => [job.state, job.files.length])).toEqual([['running', 3]]);
	});

	it('opening a job kept by another split is refused, naming the WORKER_COUNT to use', async () => {
		await (await JobJournal.create(dataDir, header('job1', 4), chooseFleetScope(4, [1]))).close();
		const holding = chooseFleetScope(N, [1]);
		const [summary] = await JobJournal.list(dataDir, GUILD, holding);
		const error = await JobJournal.open(dataDir, summary!, holding).catch((caught: unknown) => caught as JournalError);
		expect(error).toBeInstanceOf(JournalError);
		expect((error as JournalError).code).toBe(ErrorCodes.JournalOtherSplit);
		expect((error as JournalError).message).toContain('WORKER_COUNT=4');
	});

	it('a rerun holding one more worker adds its file; a restore missing a worker’s file is refused', async () => {
		await (await JobJournal.create(dataDir, header('job1'), chooseFleetScope(N, [0]))).close();
		const wider = chooseFleetScope(N, [0, 1]);
		const [summary] = await JobJournal.list(dataDir, GUILD, wider);
		expect(await codeOf(JobJournal.open(dataDir, summary!, wider, { restore: true }))).toBe(ErrorCodes.JournalOtherSplit);
		expect(files(dataDir)).toEqual(['job1.w0.jsonl']);
		await (await JobJournal.open(dataDir, summary!, wider)).close();
		expect(files(dataDir)).toEqual(['job1.w0.jsonl', 'job1.w1.jsonl']);
	});

	it('K processes on K volumes restore their own members; gathered in one folder, a process holding every worker restores each part', async () => {
		const volumes = [newDir(), newDir(), newDir()];
		const all = entries(90);
		// Each process names its part of the run itself, a moment apart.
		for (const [index, volume] of volumes.entries()) {
			const journal = await JobJournal.create(
				volume,
				{ ...header(`job-p${index}`), startedAt: `2026-01-01T00:00:0${index}.000Z` },
				chooseFleetScope(N, [index]),
			);
			await journal.recordOriginals(all.filter((entry) => workerIndexOf(entry.id, N) === index));
			await journal.mark('finished', () => undefined);
			await journal.close();
		}
		const gathered = newDir();
		for (const volume of volumes) cpSync(join(volume, GUILD), join(gathered, GUILD), { recursive: true });

		const restored = new Map<string, string | null>();
		for (const [index, volume] of volumes.entries()) {
			const holding = chooseFleetScope(N, [index]);
			const [summary] = await JobJournal.list(volume, GUILD, holding);
			const journal = await JobJournal.open(volume, summary!, holding, { restore: true });
			const loaded = await journal.loadIndex();
			for (const id of loaded.keys()) restored.set(id, loaded.get(id)!.from);
			await journal.mark('restored', () => undefined);
			await journal.close();
			expect((await JobJournal.list(volume, GUILD, holding))[0]!.state).toBe('restored');
		}
		expect(restored).toEqual(new Map(all.map((entry) => [entry.id, entry.from])));

		// In one folder, a process holding every worker (of any count) finds the three parts, newest
		// first, and restores each without creating files for the workers it has none of.
		const whole = chooseFleetScope(5, [0, 1, 2, 3, 4]);
		const parts = await JobJournal.list(gathered, GUILD, whole);
		expect(parts.map((part) => part.header.jobId)).toEqual(['job-p2', 'job-p1', 'job-p0']);
		let total = 0;
		for (const part of parts) {
			const journal = await JobJournal.open(gathered, part, whole, { restore: true });
			total += (await journal.loadIndex()).size;
			await journal.close();
		}
		expect(total).toBe(90);
		expect(files(gathered)).toHaveLength(3);
	});
});
