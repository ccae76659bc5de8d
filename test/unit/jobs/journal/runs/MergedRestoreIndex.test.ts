import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadIndex } from '../../../../../src/jobs/journal/readEntries.js';
import { headerLine, leftLine, originalLine } from '../../../../../src/jobs/journal/records.js';
import { compareIds, partitionOf } from '../../../../../src/jobs/journal/runs/lineIds.js';
import { MergedRestoreIndex } from '../../../../../src/jobs/journal/runs/MergedRestoreIndex.js';
import { SHORT_RUN, scanRuns } from '../../../../../src/jobs/journal/runs/scanRuns.js';
import { workerIndexOf } from '../../../../../src/workers/partition.js';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'massnick-runs-'));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A small seeded generator (mulberry32): each case is the same on every run. */
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

function snowflake(rand: () => number): string {
	const ms = BigInt(1e10 + Math.floor(rand() * 3e11));
	return ((ms << 22n) | BigInt(Math.floor(rand() * (1 << 22)))).toString();
}

const HEADER = headerLine({
	jobId: 'j',
	guildId: '175928847299117063',
	action: 'nickname',
	target: 'x',
	title: 'x',
	onlyRoleId: null,
	excludeRoleId: null,
	startedBy: { id: '81384788765712384', tag: 'a' },
	startedAt: '2021-04-01T00:00:00.000Z',
	workers: 1,
});

/**
 * A journal as jobs write one: passes over the listing (id order), each worker's lines in order,
 * the workers' interleaved by random batches, joiners with any id among them, `left` lines.
 */
function jobJournal(rand: () => number, workers: number, members: string[]): string {
	let text = HEADER;
	const passes = 1 + Math.floor(rand() * 3);
	for (let pass = 0; pass < passes; pass++) {
		const queues = Array.from({ length: workers }, () => [] as string[]);
		for (const id of members) if (rand() < 0.7) queues[workerIndexOf(id, workers)]!.push(id);
		for (const queue of queues) for (let n = Math.floor(rand() * 4); n > 0; n--) queue.splice(Math.floor(rand() * (queue.length + 1)), 0, snowflake(rand));
		while (queues.some((queue) => queue.length > 0)) {
			const queue = queues[Math.floor(rand() * workers)]!;
			for (let n = 1 + Math.floor(rand() * 6); n > 0 && queue.length > 0; n--) {
				const id = queue.shift()!;
				text += originalLine({ id, from: rand() < 0.3 ? null : `p${pass}-${id.slice(-4)}`, to: `t${pass}` });
			}
			if (rand() < 0.02) text += leftLine(members[Math.floor(rand() * members.length)]!);
		}
	}
	return text;
}

async function expectSameAsIndex(text: string, workers: number, asked: string[], rand: () => number): Promise<void> {
	const path = join(dir, `j${Math.floor(rand() * 1e9)}.jsonl`);
	writeFileSync(path, text);
	const whole = await loadIndex(path);
	const layout = await scanRuns(path, workers);
	const merged = new MergedRestoreIndex(path, layout, workers);
	try {
		for (const id of asked) expect(merged.get(id), id).toEqual(whole.get(id));
	} finally {
		merged.close();
	}
}

/** The ids a restore asks for: each worker's in ascending order, the workers' interleaved, some joiners out of order. */
function restoreOrder(rand: () => number, workers: number, ids: string[]): string[] {
	const queues = Array.from({ length: workers }, () => [] as string[]);
	for (const id of [...new Set(ids)].sort(compareIds)) queues[workerIndexOf(id, workers)]!.push(id);
	const asked: string[] = [];
	while (queues.some((queue) => queue.length > 0)) {
		const queue = queues[Math.floor(rand() * workers)]!;
		for (let n = 1 + Math.floor(rand() * 8); n > 0 && queue.length > 0; n--) asked.push(queue.shift()!);
		if (rand() < 0.05) asked.push(ids[Math.floor(rand() * ids.length)]!);
	}
	return asked;
}

describe('MergedRestoreIndex', () => {
	it('finds for every member the entry loading the journal whole finds, over passes, interleaved workers, joiners and left lines', async () => {
		for (let seed = 1; seed <= 40; seed++) {
			const rand = random(seed);
			const workers = 1 + Math.floor(rand() * 5);
			const size = seed % 2 === 0 ? 3000 : 1 + Math.floor(rand() * 400);
			const members = Array.from({ length: size }, () => snowflake(rand)).sort(compareIds);
			const text = jobJournal(rand, workers, members);
			const journaled = [...text.matchAll(/"id":"(\d+)"/g)].map((match) => match[1]!);
			const absent = Array.from({ length: 50 }, () => snowflake(rand));
			// Members who left since: a stretch of the listing the journal holds and the restore never asks for.
			const from = Math.floor(rand() * journaled.length);
			const gone = new Set([...journaled].sort(compareIds).slice(from, from + Math.floor(rand() * 1500)));
			const listed = [...journaled.filter((id) => !gone.has(id)), ...absent];
			await expectSameAsIndex(text, workers, restoreOrder(rand, workers, listed), rand);
		}
	});

	it('answers a journal in no order at all, and ids that are no snowflakes, from its stragglers', async () => {
		const rand = random(7);
		let text = HEADER;
		const ids: string[] = ['0123', '123', 'not-an-id'];
		for (let n = 0; n < 500; n++) ids.push(snowflake(rand));
		for (const id of ids) text += originalLine({ id, from: `f${id}`, to: 't' });
		text += originalLine({ id: ids[5]!, from: 'second', to: 't' });
		await expectSameAsIndex(
			text,
			3,
			restoreOrder(
				rand,
				1,
				ids.filter((id) => partitionOf(id, 3) >= 0),
			).concat(['0123', '123', 'not-an-id']),
			rand,
		);
	});

	it('keeps a job pass in one run per worker, a joiner in it aside, and ignores a torn last line', async () => {
		const rand = random(3);
		const members = Array.from({ length: 2000 }, () => snowflake(rand)).sort(compareIds);
		let text = HEADER;
		members.forEach((id, n) => {
			text += originalLine({ id, from: null, to: 't' });
			if (n === 1000) text += originalLine({ id: '100000000000000000', from: 'joiner', to: 't' });
		});
		const path = join(dir, 'pass.jsonl');
		writeFileSync(path, `${text}{"type":"original","id":"1`);
		const layout = await scanRuns(path, 2);
		expect(layout.runs.map((run) => run.partition).sort()).toEqual([0, 1]);
		expect(layout.stragglers).toHaveLength(1);
		expect(layout.runs.every((run) => run.lines >= SHORT_RUN)).toBe(true);
		const merged = new MergedRestoreIndex(path, layout, 2);
		try {
			expect(merged.get('100000000000000000')?.from).toBe('joiner');
			expect(merged.get(members[1999]!)).toEqual({ id: members[1999], from: null, to: 't' });
		} finally {
			merged.close();
		}
	});

	it('computes the worker of an id as workerIndexOf does', () => {
		const rand = random(11);
		for (let n = 0; n < 2000; n++) {
			const id = snowflake(rand);
			const workers = 1 + (n % 49);
			expect(partitionOf(id, workers)).toBe(workerIndexOf(id, workers));
		}
		expect(partitionOf('18446744073709551615', 7)).toBe(workerIndexOf('18446744073709551615', 7));
		expect(partitionOf('18446744073709551616', 7)).toBe(-1);
		expect(partitionOf('01234567890123456789', 7)).toBe(-1);
	});
});
