import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadIndex } from '../../../../../src/jobs/journal/readEntries.js';
import { originalLine } from '../../../../../src/jobs/journal/records.js';
import { compareIds, partitionOf } from '../../../../../src/jobs/journal/runs/lineIds.js';
import { MergedRestoreIndex } from '../../../../../src/jobs/journal/runs/MergedRestoreIndex.js';
import { SHORT_RUN, scanRuns } from '../../../../../src/jobs/journal/runs/scanRuns.js';
import { workerIndexOf } from '../../../../../src/workers/partition.js';
import { jobJournalLines, journalHeader, listingOrder, random, snowflake } from '../../../../support/jobJournalText.js';

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'massnick-runs-'));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const HEADER = journalHeader('j', 1);

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

describe('MergedRestoreIndex', () => {
	it('finds for every member the entry loading the journal whole finds, over passes, interleaved workers, joiners and left lines', async () => {
		for (let seed = 1; seed <= 40; seed++) {
			const rand = random(seed);
			const workers = 1 + Math.floor(rand() * 5);
			const size = seed % 2 === 0 ? 3000 : 1 + Math.floor(rand() * 400);
			const members = Array.from({ length: size }, () => snowflake(rand)).sort(compareIds);
			const text = HEADER + jobJournalLines(rand, workers, members);
			const journaled = [...text.matchAll(/"id":"(\d+)"/g)].map((match) => match[1]!);
			const absent = Array.from({ length: 50 }, () => snowflake(rand));
			// Members who left since: a stretch of the listing the journal holds and the restore never asks for.
			const from = Math.floor(rand() * journaled.length);
			const gone = new Set([...journaled].sort(compareIds).slice(from, from + Math.floor(rand() * 1500)));
			const listed = [...journaled.filter((id) => !gone.has(id)), ...absent];
			await expectSameAsIndex(text, workers, listingOrder(rand, workers, listed), rand);
		}
	});

	it('answers a journal in no order at all, and ids that are no snowflakes, from its stragglers', async () => {
		const rand = random(7);
		let text = HEADER;
		const ids: string[] = ['0123', '123', 'not-an-id', '18446744073709551615', '18446744073709551614', '18446744073709551616', '10000000000000000'];
		for (let n = 0; n < 500; n++) ids.push(snowflake(rand));
		for (const id of ids) text += originalLine({ id, from: `f${id}`, to: 't' });
		text += originalLine({ id: ids[5]!, from: 'second', to: 't' });
		text += originalLine({ id: ids[3]!, from: 'second', to: 't' });
		text += originalLine({ id: ids[20]!, from: 'second', to: 't' });
		await expectSameAsIndex(
			text,
			3,
			listingOrder(
				rand,
				1,
				ids.filter((id) => partitionOf(id, 3) >= 0),
			).concat(['0123', '123', 'not-an-id', '18446744073709551616']),
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
