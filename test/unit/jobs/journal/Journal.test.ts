import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCodes, JournalError } from '../../../../src/errors.js';
import { Journal, type JournalHeaderInput, loadIndex, readEntries } from '../../../../src/jobs/journal/Journal.js';
import { codeOf } from '../../../support/journalErrorCode.js';

const GUILD = '175928847299117063';

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-journal-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

function header(jobId: string, overrides: Partial<JournalHeaderInput> = {}): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: '🎃 {display_name}',
		title: 'Renaming to “🎃 {display_name}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'alice' },
		startedAt: '2021-04-01T00:00:00.000Z',
		workers: 10,
		...overrides,
	};
}

function id(n: number): string {
	return (300000000000000000n + BigInt(n)).toString();
}

function lines(path: string): unknown[] {
	return readFileSync(path, 'utf8')
		.trimEnd()
		.split('\n')
		.map((line) => JSON.parse(line) as unknown);
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const items: T[] = [];
	for await (const item of iterable) items.push(item);
	return items;
}

describe('Journal files', () => {
	it('lives at <dataDir>/<guildId>/<jobId>.jsonl and starts with its header', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		expect(journal.path).toBe(join(dataDir, GUILD, 'job1.jsonl'));
		expect(lines(journal.path)).toEqual([{ type: 'job', version: 3, ...header('job1') }]);
		expect(journal.header).toMatchObject({ type: 'job', version: 3, jobId: 'job1' });
		await journal.close();
	});

	it('is readable by its owner only (directory 0700, file 0600), whatever the umask', async () => {
		const old = process.umask(0o000);
		try {
			const journal = await Journal.create(dataDir, header('job1'));
			expect(statSync(join(dataDir, GUILD)).mode & 0o777).toBe(0o700);
			expect(statSync(journal.path).mode & 0o777).toBe(0o600);
			await journal.close();
		} finally {
			process.umask(old);
		}
	});

	it('reopening tightens a file that was made readable by others', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.close();
		chmodSync(journal.path, 0o644);
		chmodSync(join(dataDir, GUILD), 0o755);
		await (await Journal.open(dataDir, GUILD, 'job1')).close();
		expect(statSync(journal.path).mode & 0o777).toBe(0o600);
		await (await Journal.create(dataDir, header('job2'))).close();
		expect(statSync(join(dataDir, GUILD)).mode & 0o777).toBe(0o700);
	});

	it('a job cannot get a second journal', async () => {
		await (await Journal.create(dataDir, header('job1'))).close();
		expect(await codeOf(Journal.create(dataDir, header('job1')))).toBe(ErrorCodes.JournalExists);
	});

	it('ids that could escape the data directory are refused', async () => {
		expect(await codeOf(Journal.create(dataDir, header('../evil')))).toBe(ErrorCodes.InvalidArgument);
		expect(() => Journal.pathOf(dataDir, '../x', 'job')).toThrow(JournalError);
	});

	it('opening a journal that does not exist says so', async () => {
		expect(await codeOf(Journal.open(dataDir, GUILD, 'nope'))).toBe(ErrorCodes.JournalNotFound);
	});

	it('a file without a header is corrupt', async () => {
		await (await Journal.create(dataDir, header('job1'))).close();
		writeFileSync(Journal.pathOf(dataDir, GUILD, 'job1'), '{"type":"original","id":"1","from":null,"to":"x"}\n');
		expect(await codeOf(Journal.open(dataDir, GUILD, 'job1'))).toBe(ErrorCodes.JournalCorrupt);
	});
});

describe('Journal originals', () => {
	it('records a batch and reads it back in order', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.recordOriginals([
			{ id: id(1), from: null, to: '🎃 Alice' },
			{ id: id(2), from: 'bobby', to: '🎃 Bob' },
		]);
		expect(journal.size).toBe(2);
		expect(journal.originalOf(id(2))).toBe('bobby');
		expect(journal.originalOf(id(1))).toBeNull();
		expect(journal.originalOf(id(3))).toBeUndefined();
		expect(await collect(journal.entries())).toEqual([
			{ id: id(1), from: null, to: '🎃 Alice' },
			{ id: id(2), from: 'bobby', to: '🎃 Bob' },
		]);
		await journal.close();
	});

	it('the first value wins: a later original for the same id is not written', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.recordOriginals([{ id: id(1), from: 'first', to: 'x' }]);
		await journal.recordOriginals([
			{ id: id(1), from: 'x', to: 'x' },
			{ id: id(2), from: 'two', to: 'x' },
			{ id: id(2), from: 'again', to: 'x' },
		]);
		expect(await collect(journal.entries())).toEqual([
			{ id: id(1), from: 'first', to: 'x' },
			{ id: id(2), from: 'two', to: 'x' },
		]);
		await journal.close();
	});

	it('the first value wins across a reopen', async () => {
		const first = await Journal.create(dataDir, header('job1'));
		await first.recordOriginals([{ id: id(1), from: 'original', to: 'x' }]);
		await first.close();
		const second = await Journal.open(dataDir, GUILD, 'job1');
		expect(second.originalOf(id(1))).toBe('original');
		await second.recordOriginals([{ id: id(1), from: 'x', to: 'x' }]);
		await second.close();
		expect((await loadIndex(first.path)).get(id(1))).toEqual({ id: id(1), from: 'original', to: 'x' });
		expect(await collect(readEntries(first.path))).toHaveLength(1);
	});

	it('concurrent calls are grouped into fewer writes, and each resolves only once on disk', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		const calls = Array.from({ length: 20 }, (_, n) => journal.recordOriginals([{ id: id(n), from: null, to: 'x' }]));
		const sizesWhenResolved: number[] = [];
		await Promise.all(calls.map((call) => call.then(() => sizesWhenResolved.push(lines(journal.path).length))));
		// Each call saw at least its own line on disk (the header is line 1).
		expect(Math.min(...sizesWhenResolved)).toBeGreaterThanOrEqual(2);
		expect(lines(journal.path)).toHaveLength(21);
		await journal.close();
	});

	it('a call with only journaled ids still waits for the write that holds them', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		const first = journal.recordOriginals([{ id: id(1), from: null, to: 'x' }]);
		let onDisk = -1;
		await journal.recordOriginals([{ id: id(1), from: 'y', to: 'x' }]).then(() => {
			onDisk = lines(journal.path).length;
		});
		await first;
		expect(onDisk).toBe(2);
		await journal.close();
	});

	it('close waits for a write under way, and the write still resolves', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		const recorded = journal.recordOriginals([{ id: id(1), from: null, to: 'x' }]);
		await journal.close();
		await expect(recorded).resolves.toBeUndefined();
		expect(lines(journal.path)).toHaveLength(2);
	});

	it('after close, recording is refused', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.close();
		expect(await codeOf(journal.recordOriginals([{ id: id(1), from: null, to: 'x' }]))).toBe(ErrorCodes.JournalClosed);
	});

	it('100,000 entries in batches of 1000 read back exactly', async () => {
		const journal = await Journal.create(dataDir, header('big'));
		const writes: Promise<void>[] = [];
		for (let batch = 0; batch < 100; batch++) {
			writes.push(
				journal.recordOriginals(
					Array.from({ length: 1000 }, (_, n) => {
						const i = batch * 1000 + n;
						return { id: id(i), from: i % 3 === 0 ? null : `nick ${i} 🎃`, to: 'April Fool' };
					}),
				),
			);
		}
		await Promise.all(writes);
		await journal.markFinished({ renamed: 100_000 });
		await journal.close();
		const index = await loadIndex(journal.path);
		expect(index.size).toBe(100_000);
		expect(index.get(id(99_998))).toEqual({ id: id(99_998), from: 'nick 99998 🎃', to: 'April Fool' });
		expect(index.get(id(3))?.from).toBeNull();
		const reopened = await Journal.open(dataDir, GUILD, 'big');
		expect(reopened.size).toBe(100_000);
		await reopened.close();
		expect((await Journal.list(dataDir, GUILD))[0]).toMatchObject({ state: 'finished', counts: { renamed: 100_000 } });
	}, 30_000);
});

describe('Journal after a crash', () => {
	it('a torn last line is ignored on read with a warning', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.recordOriginals([{ id: id(1), from: 'a', to: 'x' }]);
		await journal.close();
		appendFileSync(journal.path, '{"type":"original","id":"3000');
		const warnings: string[] = [];
		expect(await collect(readEntries(journal.path, { onWarning: (message) => warnings.push(message) }))).toEqual([{ id: id(1), from: 'a', to: 'x' }]);
		expect(warnings).toEqual([expect.stringContaining(':3: torn last line')]);
	});

	it('a torn last line does not corrupt the next append', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.recordOriginals([{ id: id(1), from: 'a', to: 'x' }]);
		await journal.close();
		appendFileSync(journal.path, '{"type":"original","id":"3000');
		const warnings: string[] = [];
		const reopened = await Journal.open(dataDir, GUILD, 'job1', { onWarning: (message) => warnings.push(message) });
		expect(warnings).toHaveLength(1);
		await reopened.recordOriginals([{ id: id(2), from: 'b', to: 'x' }]);
		await reopened.close();
		expect(lines(reopened.path)).toEqual([
			expect.objectContaining({ type: 'job' }),
			{ type: 'original', id: id(1), from: 'a', to: 'x' },
			{ type: 'original', id: id(2), from: 'b', to: 'x' },
		]);
	});

	it('a torn line ending inside a multi-byte character is dropped cleanly', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.close();
		appendFileSync(journal.path, Buffer.from('{"type":"original","id":"1","from":"🎃').subarray(0, 37));
		const reopened = await Journal.open(dataDir, GUILD, 'job1');
		await reopened.recordOriginals([{ id: id(2), from: '🎃', to: 'x' }]);
		await reopened.close();
		expect(lines(reopened.path)).toHaveLength(2);
	});

	it('a garbage line in the middle is skipped with a warning, never fatal', async () => {
		const journal = await Journal.create(dataDir, header('job1'));
		await journal.close();
		appendFileSync(journal.path, `not json\n{"type":"original","id":"${id(1)}","from":null,"to":"x"}\n`);
		const warnings: string[] = [];
		const index = await loadIndex(journal.path, { onWarning: (message) => warnings.push(message) });
		expect([...index.keys()]).toEqual([id(1)]);
		expect(warnings).toEqual([expect.stringContaining(':2: skipped')]);
	});
});

describe('Journal.list and latestRename', () => {
	it('lists every journal with its state, newest first', async () => {
		const finished = await Journal.create(dataDir, header('a', { startedAt: '2021-04-01T00:00:00.000Z' }));
		await finished.markFinished({ renamed: 3 });
		const cancelled = await Journal.create(dataDir, header('b', { startedAt: '2021-04-02T00:00:00.000Z' }));
		await cancelled.markCancelled();
		const crashed = await Journal.create(dataDir, header('c', { startedAt: '2021-04-03T00:00:00.000Z' }));
		await crashed.recordOriginals([{ id: id(1), from: null, to: 'x' }]);
		await Promise.all([finished.close(), cancelled.close(), crashed.close()]);

		const list = await Journal.list(dataDir, GUILD);
		expect(list.map((summary) => [summary.header.jobId, summary.state])).toEqual([
			['c', 'running'],
			['b', 'cancelled'],
			['a', 'finished'],
		]);
		expect(list[2]!.counts).toEqual({ renamed: 3 });
	});

	it('a job resumed after a cancel is running again until its next status', async () => {
		const journal = await Journal.create(dataDir, header('a'));
		await journal.markCancelled();
		await journal.recordOriginals([{ id: id(1), from: null, to: 'x' }]);
		expect((await Journal.list(dataDir, GUILD))[0]!.state).toBe('running');
		await journal.markFinished();
		expect((await Journal.list(dataDir, GUILD))[0]!.state).toBe('finished');
		await journal.close();
	});

	it('a restored journal says so', async () => {
		const journal = await Journal.create(dataDir, header('a'));
		await journal.markFinished();
		await journal.markRestored({ renamed: 2 });
		await journal.close();
		expect(await Journal.list(dataDir, GUILD)).toEqual([expect.objectContaining({ state: 'restored', counts: { renamed: 2 } })]);
	});

	it('lists journals of every action, newest first', async () => {
		await (await Journal.create(dataDir, header('n1', { startedAt: '2021-04-01T00:00:00.000Z' }))).close();
		await (
			await Journal.create(
				dataDir,
				header('r1', { action: 'role-add', target: '300000000000000009', title: 'Adding @Event', startedAt: '2021-04-02T00:00:00.000Z' }),
			)
		).close();
		expect((await Journal.list(dataDir, GUILD)).map((summary) => [summary.header.jobId, summary.header.action])).toEqual([
			['r1', 'role-add'],
			['n1', 'nickname'],
		]);
	});

	it('reads a version 1 journal (before mass actions) as the version 3 header it means', async () => {
		const dir = join(dataDir, GUILD);
		mkdirSync(dir, { recursive: true });
		const v1 = {
			type: 'job',
			version: 1,
			jobId: 'old',
			guildId: GUILD,
			kind: 'rename',
			template: 'x {id}',
			roleId: '300000000000000009',
			excludeRoleId: null,
			startedBy: { id: '1', tag: 'a' },
			startedAt: '2021-01-01T00:00:00.000Z',
			workers: 3,
		};
		writeFileSync(join(dir, 'old.jsonl'), `${JSON.stringify(v1)}\n${JSON.stringify({ type: 'original', id: id(1), from: 'bob', to: 'x 1' })}\n`);
		const [summary] = await Journal.list(dataDir, GUILD);
		expect(summary?.header).toMatchObject({
			version: 3,
			jobId: 'old',
			action: 'rename',
			target: 'x {id}',
			onlyRoleId: '300000000000000009',
			excludeRoleId: null,
			workers: 3,
		});
		expect(summary?.state).toBe('running');
		expect(await collect(readEntries(summary!.path))).toEqual([{ id: id(1), from: 'bob', to: 'x 1' }]);
	});

	it('a guild without journals lists none', async () => {
		expect(await Journal.list(dataDir, GUILD)).toEqual([]);
	});

	it('an unreadable file is skipped with a warning', async () => {
		await (await Journal.create(dataDir, header('a'))).close();
		writeFileSync(join(dataDir, GUILD, 'broken.jsonl'), 'garbage');
		const warnings: string[] = [];
		expect(await Journal.list(dataDir, GUILD, { onWarning: (message) => warnings.push(message) })).toHaveLength(1);
		expect(warnings).toEqual([expect.stringContaining('broken.jsonl')]);
	});

	it('a header holding 100,000 listed user ids is read whole, for the list and for a reopen', async () => {
		const userIds = Array.from({ length: 100_000 }, (_, n) => id(n));
		const filters = { members: 'humans' as const, userIdsFrom: 'raid.csv', userIds };
		const journal = await Journal.create(dataDir, header('ids', { filters }));
		await journal.recordOriginals([{ id: id(1), from: null, to: 'x' }]);
		await journal.markFinished({ renamed: 1 });
		await journal.close();
		expect(statSync(journal.path).size).toBeGreaterThan(2_000_000);
		const [summary] = await Journal.list(dataDir, GUILD);
		expect(summary).toMatchObject({ state: 'finished', counts: { renamed: 1 } });
		expect(summary!.header.filters).toEqual(filters);
		const reopened = await Journal.open(dataDir, GUILD, 'ids');
		expect(reopened.header.filters?.userIds).toHaveLength(100_000);
		await reopened.close();
	});

	it('a header line longer than any list of ids is refused, not read without end', async () => {
		mkdirSync(join(dataDir, GUILD), { recursive: true });
		writeFileSync(join(dataDir, GUILD, 'huge.jsonl'), `{"type":"job","pad":"${'x'.repeat(9 << 20)}`);
		const warnings: string[] = [];
		expect(await Journal.list(dataDir, GUILD, { onWarning: (message) => warnings.push(message) })).toEqual([]);
		expect(warnings).toEqual([expect.stringContaining('has a header line over 8 MB')]);
	});

	it('the state is found at the end of a big journal without reading it all', async () => {
		const journal = await Journal.create(dataDir, header('big'));
		await journal.recordOriginals(Array.from({ length: 5000 }, (_, n) => ({ id: id(n), from: 'x'.repeat(20), to: 'y' })));
		await journal.markCancelled({ renamed: 5000 });
		await journal.close();
		expect(statSync(journal.path).size).toBeGreaterThan(1 << 17);
		expect((await Journal.list(dataDir, GUILD))[0]).toMatchObject({ state: 'cancelled', counts: { renamed: 5000 } });
	});
});
