import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../../../src/jobs/journal/Journal.js';
import { OriginalIndex } from '../../../../../src/jobs/journal/OriginalIndex.js';
import { readEntryRecords } from '../../../../../src/jobs/journal/readEntries.js';
import { originalLine } from '../../../../../src/jobs/journal/records.js';
import { compareIds } from '../../../../../src/jobs/journal/runs/lineIds.js';
import { JOURNAL_GUILD, jobJournalLines, journalHeader, listingOrder, random, snowflake } from '../../../../support/jobJournalText.js';

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-reopen-'));
	mkdirSync(join(dataDir, JOURNAL_GUILD), { recursive: true });
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

/** The originals as reading the file whole gives them (the first wins, a `left` forgets): what a reopened journal answered before it read its runs. */
async function readWhole(path: string): Promise<OriginalIndex> {
	const index = new OriginalIndex();
	for await (const record of readEntryRecords(path)) {
		if (record.type === 'original') index.add(record.id, record.from);
		else index.forget(record.id);
	}
	return index;
}

/** The lines a `Journal` would have written of these: an original only for a member without one, a `left` only for one with one. */
function asJournalWrites(lines: string): string {
	const index = new OriginalIndex();
	return lines
		.split('\n')
		.filter((line) => {
			if (line === '') return false;
			const record = JSON.parse(line) as { type: string; id: string; from: string | null };
			return record.type === 'original' ? index.add(record.id, record.from) : index.forget(record.id);
		})
		.map((line) => `${line}\n`)
		.join('');
}

function expectSame(journal: Journal, whole: OriginalIndex, asked: readonly string[]): void {
	for (const id of asked) {
		expect(journal.originalOf(id), id).toBe(whole.originalOf(id));
		expect(journal.has(id), id).toBe(whole.has(id));
	}
	expect(journal.size).toBe(whole.size);
}

describe('a journal reopened to go on appending', () => {
	it('answers from its ordered runs what an index of the whole file answers, before and after it appends, across reopenings', async () => {
		for (let seed = 1; seed <= 24; seed++) {
			const rand = random(seed);
			const workers = 1 + Math.floor(rand() * 5);
			const size = seed % 3 === 0 ? 3000 : 1 + Math.floor(rand() * 400);
			const members = Array.from({ length: size }, () => snowflake(rand)).sort(compareIds);
			const jobId = `job${seed}`;
			const path = Journal.pathOf(dataDir, JOURNAL_GUILD, jobId);
			const lines = asJournalWrites(jobJournalLines(rand, workers, members));
			writeFileSync(path, journalHeader(jobId, workers) + lines);
			const journaled = [...new Set([...lines.matchAll(/"id":"(\d+)"/g)].map((match) => match[1]!))];
			const absent = Array.from({ length: 30 }, () => snowflake(rand));
			const everyone = [...members, ...journaled, ...absent];

			let journal = await Journal.open(dataDir, JOURNAL_GUILD, jobId);
			let whole = await readWhole(path);
			expectSame(journal, whole, listingOrder(rand, workers, everyone));

			// The job goes on: it journals the listing again in its order (the first original
			// wins), joiners, and members who leave, as a job continued after a crash does.
			for (const id of listingOrder(rand, workers, everyone)) {
				const roll = rand();
				if (roll < 0.4) {
					const entry = { id, from: rand() < 0.2 ? null : `again-${id.slice(-3)}`, to: 'later' };
					whole.add(entry.id, entry.from);
					await journal.recordOriginals([entry]);
				} else if (roll < 0.45) {
					whole.forget(id);
					await journal.memberLeft(id);
				}
				expect(journal.originalOf(id), id).toBe(whole.originalOf(id));
			}
			expectSame(journal, whole, everyone);
			await journal.close();

			// What it appended is read back the same, and so is the rest.
			journal = await Journal.open(dataDir, JOURNAL_GUILD, jobId);
			whole = await readWhole(path);
			expectSame(journal, whole, listingOrder(rand, workers, everyone));
			await journal.close();
		}
	});

	it('reads a file in no order a job writes (a hand-made one) whole, and answers the same', async () => {
		const rand = random(5);
		const path = Journal.pathOf(dataDir, JOURNAL_GUILD, 'hand');
		let text = journalHeader('hand', 3);
		const ids = Array.from({ length: 300 }, () => snowflake(rand));
		for (const id of ids) text += originalLine({ id, from: `f${id.slice(-4)}`, to: 't' });
		writeFileSync(path, text);
		const journal = await Journal.open(dataDir, JOURNAL_GUILD, 'hand');
		try {
			expectSame(journal, await readWhole(path), [...ids, ...ids.slice(0, 20).reverse(), snowflake(rand)]);
		} finally {
			await journal.close();
		}
	});
});
