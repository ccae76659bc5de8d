import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactingPath } from '../../../../src/jobs/journal/files.js';
import { Journal, type JournalHeaderInput, loadIndex } from '../../../../src/jobs/journal/Journal.js';
import { readSummary } from '../../../../src/jobs/journal/readSummary.js';
import type { RestoreEntry } from '../../../../src/jobs/Plan.js';

const GUILD = '175928847299117063';
const NOW = Date.parse('2026-12-05T12:00:00.000Z');

let dirs: string[] = [];
const newDir = (): string => {
	const dir = mkdtempSync(join(tmpdir(), 'massnick-compact-'));
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

function header(jobId: string): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'role-add',
		target: '300000000000000009',
		title: 'Adding @Member',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'alice' },
		startedAt: '2026-12-01T00:00:00.000Z',
		workers: 4,
	};
}

/** Member `n`: ids of different lengths, so an order by string would differ from the order by number. */
function id(n: number): string {
	return (9_000_000_000_000_000n + BigInt(n) * 1_000_000_000_000_000n).toString();
}

const given = (n: number, from: string | null = null): RestoreEntry => ({ id: id(n), from, to: '300000000000000009' });

function records(path: string): Array<Record<string, unknown>> {
	return readFileSync(path, 'utf8')
		.trimEnd()
		.split('\n')
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What a restore of the file would bring back: its entries by id, in id order. */
async function restoreOf(path: string): Promise<RestoreEntry[]> {
	const index = await loadIndex(path);
	return [...index.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)).map((key) => index.get(key)!);
}

describe('compacting a journal', () => {
	it('keeps one line per member, the first original, in id order after a compacted line', async () => {
		const journal = await Journal.create(dataDir, header('rule'), { now: () => NOW });
		await journal.recordOriginals([given(12, 'first'), given(3), given(100)]);
		await journal.close();
		// An older massnick could journal a member twice: the first still wins.
		appendFileSync(journal.path, `${JSON.stringify({ type: 'original', id: id(12), from: 'second', to: 'x' })}\n`);
		const reopened = await Journal.open(dataDir, GUILD, 'rule', { now: () => NOW });
		const result = await reopened.compact();
		await reopened.close();

		const lines = records(journal.path);
		expect(lines[0]).toMatchObject({ type: 'job', version: 3, jobId: 'rule' });
		expect(lines[1]).toMatchObject({ type: 'compacted', at: new Date(NOW).toISOString(), entries: 3, dropped: 0 });
		expect(lines.slice(2).map((line) => [line.id, line.from])).toEqual([
			[id(3), null],
			[id(12), 'first'],
			[id(100), null],
		]);
		expect(result).toMatchObject({ entries: 3, dropped: 0 });
		expect(result!.bytesAfter).toBe(statSync(journal.path).size);
	});

	it('drops a member a left line says left, and keeps the original of one who joined again from their rejoin', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1, 'old nick'), given(2), given(3)]);
		await journal.memberLeft(id(1));
		await journal.memberLeft(id(2));
		expect(journal.has(id(2))).toBe(false);
		// They join again with nothing of what the job set: their next change journals their original anew.
		await journal.recordOriginals([given(1, null)]);
		expect(journal.originalOf(id(1))).toBe(null);
		// A member the journal does not hold gets no left line.
		await journal.memberLeft(id(99));
		const before = await restoreOf(journal.path);
		expect(before.map((entry) => [entry.id, entry.from])).toEqual([
			[id(1), null],
			[id(3), null],
		]);
		expect(records(journal.path).filter((line) => line.type === 'left')).toHaveLength(2);

		const result = await journal.compact();
		expect(result).toMatchObject({ entries: 2, dropped: 2 });
		expect(await restoreOf(journal.path)).toEqual(before);
		expect(records(journal.path).some((line) => line.type === 'left')).toBe(false);
		expect(journal.size).toBe(2);
		expect(journal.has(id(2))).toBe(false);
		await journal.close();
		const reopened = await Journal.open(dataDir, GUILD, 'rule');
		expect([reopened.originalOf(id(1)), reopened.originalOf(id(2)), reopened.originalOf(id(3))]).toEqual([null, undefined, null]);
		await reopened.close();
	});

	it('drops the entries the action says have come undone by themselves (a timeout past its end), and keeps the rest', async () => {
		const journal = await Journal.create(dataDir, { ...header('timeouts'), action: 'timeout' });
		const until = (ms: number) => new Date(ms).toISOString();
		await journal.recordOriginals([
			{ id: id(1), from: null, to: until(NOW - 1000) },
			{ id: id(2), from: null, to: until(NOW + 60_000) },
		]);
		const result = await journal.compact({ expired: (entry, now) => entry.to !== null && Date.parse(entry.to) <= now, now: () => NOW });
		expect(result).toMatchObject({ entries: 1, dropped: 1 });
		expect((await restoreOf(journal.path)).map((entry) => entry.id)).toEqual([id(2)]);
		// Timed out again later, the member's original is journaled anew.
		expect(journal.has(id(1))).toBe(false);
		await journal.recordOriginals([{ id: id(1), from: null, to: until(NOW + 120_000) }]);
		expect((await restoreOf(journal.path)).map((entry) => entry.id)).toEqual([id(1), id(2)]);
		await journal.close();
	});

	it('keeps every entry of an action that says nothing of its entries (a ban can be lifted, a kick is a record)', async () => {
		const journal = await Journal.create(dataDir, { ...header('bans'), action: 'ban' });
		await journal.recordOriginals([given(1), given(2)]);
		await journal.compact();
		expect((await restoreOf(journal.path)).map((entry) => entry.id)).toEqual([id(1), id(2)]);
		await journal.close();
	});

	it('a crash between writing the compacted file and its rename leaves a journal that restores the same', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1, 'a'), given(2, 'b'), given(3, 'c')]);
		await journal.memberLeft(id(2));
		await journal.close();
		// What the disk holds at that moment: the journal as it was, and the compacted file beside it.
		const crashed = newDir();
		mkdirSync(join(crashed, GUILD));
		copyFileSync(journal.path, join(crashed, GUILD, 'rule.jsonl'));
		const reopened = await Journal.open(dataDir, GUILD, 'rule');
		await reopened.compact();
		await reopened.close();
		const image = join(crashed, GUILD, 'rule.jsonl');
		copyFileSync(journal.path, compactingPath(image));

		expect(await restoreOf(image)).toEqual(await restoreOf(journal.path));
		const [summary] = await Journal.list(crashed, GUILD);
		expect(summary?.path).toBe(image);
		const resumed = await Journal.open(crashed, GUILD, 'rule');
		expect(existsSync(compactingPath(image))).toBe(false);
		expect([resumed.originalOf(id(1)), resumed.originalOf(id(2)), resumed.originalOf(id(3))]).toEqual(['a', undefined, 'c']);
		// And it compacts again from there, to the same members.
		await resumed.compact();
		await resumed.close();
		expect(await restoreOf(image)).toEqual(await restoreOf(journal.path));
		expect(records(image).slice(2)).toEqual(records(journal.path).slice(2));
	});

	it('a crash while the compacted file was half written leaves the journal whole', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1, 'a'), given(2, 'b')]);
		await journal.close();
		const crashed = newDir();
		mkdirSync(join(crashed, GUILD));
		const image = join(crashed, GUILD, 'rule.jsonl');
		copyFileSync(journal.path, image);
		const before = await restoreOf(image);
		const reopened = await Journal.open(dataDir, GUILD, 'rule');
		await reopened.compact();
		await reopened.close();
		// The journal from before, and the compacted file beside it cut short mid-line.
		const compacted = readFileSync(journal.path);
		writeFileSync(compactingPath(image), compacted.subarray(0, compacted.length - 7));

		expect(await restoreOf(image)).toEqual(before);
		const resumed = await Journal.open(crashed, GUILD, 'rule');
		expect(existsSync(compactingPath(image))).toBe(false);
		expect([resumed.originalOf(id(1)), resumed.originalOf(id(2))]).toEqual(['a', 'b']);
		await resumed.close();
	});

	it('goes on while the job appends: every append acknowledged during it is in the compacted file and the index', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals(Array.from({ length: 2000 }, (_, n) => given(n + 1000, `n${n}`)));
		for (let n = 0; n < 1000; n++) await journal.memberLeft(id(n + 1000));
		let compacting = true;
		const compaction = journal.compact().finally(() => {
			compacting = false;
		});
		const appended: number[] = [];
		// One append after another, for as long as the compaction runs: some land on each side of it.
		while (compacting) {
			const n = appended.length;
			await journal.recordOriginals([given(n, `new ${n}`)]);
			appended.push(n);
		}
		const result = await compaction;
		await journal.recordOriginals([given(99_999)]);
		expect(result).toMatchObject({ entries: 1000, dropped: 1000 });
		expect(appended.length).toBeGreaterThan(0);
		const restored = new Map((await restoreOf(journal.path)).map((entry) => [entry.id, entry.from]));
		expect(restored.size).toBe(1000 + appended.length + 1);
		for (const n of appended) expect(restored.get(id(n))).toBe(`new ${n}`);
		for (const n of appended) expect(journal.originalOf(id(n))).toBe(`new ${n}`);
		expect(restored.has(id(1000))).toBe(false);
		expect(restored.get(id(2999))).toBe('n1999');
		expect(journal.size).toBe(restored.size);
		await journal.close();
	});

	it('keeps the state the last line gave (stopped stays stopped), and a reopened journal knows its compacted size', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1), given(2)]);
		await journal.memberLeft(id(1));
		await journal.markStopped({ changed: 2 });
		await journal.close();
		const reopened = await Journal.open(dataDir, GUILD, 'rule');
		await reopened.compact();
		const compactedBytes = reopened.compactedBytes;
		await reopened.close();
		expect(await readSummary(journal.path)).toMatchObject({ state: 'stopped', counts: { changed: 2 } });
		expect(compactedBytes).toBeGreaterThan(0);
		expect(compactedBytes).toBeLessThan(statSync(journal.path).size);
		const again = await Journal.open(dataDir, GUILD, 'rule');
		expect(again.compactedBytes).toBe(compactedBytes);
		expect(again.bytes).toBe(statSync(journal.path).size);
		await again.close();
	});

	it('reads and compacts a version 1 and a version 2 journal, which come out as version 3 restoring the same', async () => {
		const dir = join(dataDir, GUILD);
		mkdirSync(dir, { recursive: true });
		const v1 = {
			type: 'job',
			version: 1,
			jobId: 'v1',
			guildId: GUILD,
			kind: 'rename',
			template: 'x {id}',
			excludeRoleId: null,
			startedBy: { id: '1', tag: 'a' },
			startedAt: '2021-01-01T00:00:00.000Z',
			workers: 3,
		};
		const v2 = { type: 'job', version: 2, ...header('v2') };
		const body = [
			{ type: 'original', id: id(5), from: 'e', to: 'x' },
			{ type: 'original', id: id(1), from: null, to: 'x' },
			{ type: 'status', state: 'cancelled', at: '2021-01-02T00:00:00.000Z' },
			{ type: 'original', id: id(5), from: 'again', to: 'x' },
		];
		for (const [name, head] of [
			['v1', v1],
			['v2', v2],
		] as const) {
			const path = join(dir, `${name}.jsonl`);
			writeFileSync(path, [head, ...body].map((line) => `${JSON.stringify(line)}\n`).join(''));
			const before = await restoreOf(path);
			const journal = await Journal.open(dataDir, GUILD, name);
			await journal.compact();
			await journal.close();
			expect(await restoreOf(path)).toEqual(before);
			expect(before.map((entry) => [entry.id, entry.from])).toEqual([
				[id(1), null],
				[id(5), 'e'],
			]);
			const [first, marker] = records(path);
			expect(first).toMatchObject({ type: 'job', version: 3, jobId: name });
			expect(marker).toMatchObject({ type: 'compacted', entries: 2 });
		}
		expect(records(join(dir, 'v1.jsonl'))[0]).toMatchObject({ action: 'rename', target: 'x {id}' });
	});

	it('a compaction that cannot write its file leaves the journal as it was, appending as ever', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1), given(2)]);
		await journal.memberLeft(id(1));
		const before = readFileSync(journal.path, 'utf8');
		// Something in the way of the compacted file.
		mkdirSync(compactingPath(journal.path));
		writeFileSync(join(compactingPath(journal.path), 'in the way'), '');
		await expect(journal.compact()).rejects.toThrow();
		expect(readFileSync(journal.path, 'utf8')).toBe(before);
		await journal.recordOriginals([given(3)]);
		expect((await restoreOf(journal.path)).map((entry) => entry.id)).toEqual([id(2), id(3)]);
		expect(journal.size).toBe(2);
		await journal.close();
	});

	it('a closed journal is not compacted, and its file is left alone', async () => {
		const journal = await Journal.create(dataDir, header('rule'));
		await journal.recordOriginals([given(1)]);
		await journal.memberLeft(id(1));
		await journal.close();
		const before = readFileSync(journal.path, 'utf8');
		expect(await journal.compact()).toBeUndefined();
		expect(readFileSync(journal.path, 'utf8')).toBe(before);
	});
});
