import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunLock } from '../../../src/cli/RunLock.js';
import { ErrorCodes } from '../../../src/errors.js';

const GUILD = '281552638070228032';

describe('RunLock', () => {
	let dataDir: string;
	const locks: RunLock[] = [];

	beforeEach(async () => {
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-lock-'));
	});

	afterEach(async () => {
		for (const lock of locks.splice(0)) await lock.release();
		await rm(dataDir, { recursive: true, force: true });
	});

	async function take(what?: string): Promise<RunLock> {
		const lock = await RunLock.take(dataDir, GUILD, { what });
		locks.push(lock);
		return lock;
	}

	async function writeHolder(holder: Record<string, unknown>, ageMs = 0): Promise<string> {
		const path = RunLock.pathOf(dataDir, GUILD);
		await mkdir(dirname(path), { recursive: true });
		await writeFile(path, JSON.stringify(holder));
		const at = new Date(Date.now() - ageMs);
		await utimes(path, at, at);
		return path;
	}

	it('a second run is refused while the first holds the lock, naming the holder; after release it may run', async () => {
		const first = await take('massnick run restore');
		await expect(RunLock.take(dataDir, GUILD)).rejects.toMatchObject({
			code: ErrorCodes.JobRunning,
			message: expect.stringContaining(`(massnick run restore): process ${process.pid} on ${hostname()}`),
		});
		await first.release();
		await take();
	});

	it('the lock file is readable by its owner only, and goes away on release', async () => {
		const lock = await take();
		expect((await stat(lock.path)).mode & 0o777).toBe(0o600);
		await lock.release();
		await expect(stat(lock.path)).rejects.toMatchObject({ code: 'ENOENT' });
	});

	it('a lock left by a dead process of this host is taken over at once', async () => {
		const child = spawn(process.execPath, ['-e', '']);
		await once(child, 'exit');
		await writeHolder({ pid: child.pid, host: hostname(), startedAt: new Date().toISOString(), nonce: 'old' });
		const lock = await take();
		expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
	});

	it("another host's lock holds while it is touched, and is stale a minute after its last touch", async () => {
		await writeHolder({ pid: 1, host: 'another-pod', startedAt: new Date().toISOString(), nonce: 'theirs' }, 5_000);
		await expect(RunLock.take(dataDir, GUILD)).rejects.toMatchObject({ message: expect.stringContaining('process 1 on another-pod') });
		await writeHolder({ pid: 1, host: 'another-pod', startedAt: new Date().toISOString(), nonce: 'theirs' }, 61_000);
		await take();
	});

	it('an empty lock file (a holder killed while writing it) is judged by its age', async () => {
		const path = await writeHolder({}, 0);
		await writeFile(path, '');
		await expect(RunLock.take(dataDir, GUILD)).rejects.toMatchObject({ code: ErrorCodes.JobRunning });
		const old = new Date(Date.now() - 61_000);
		await utimes(path, old, old);
		await take();
	});

	it('releasing after a successor took the lock over leaves the successor its file', async () => {
		const lock = await take();
		const old = new Date(Date.now() - 61_000);
		await utimes(lock.path, old, old);
		const successor = await take();
		await lock.release();
		expect(JSON.parse(await readFile(successor.path, 'utf8'))).toMatchObject({ pid: process.pid });
		await expect(RunLock.take(dataDir, GUILD)).rejects.toMatchObject({ code: ErrorCodes.JobRunning });
	});

	describe('in a fleet, per worker', () => {
		const held = async (ids: number[], count = 4): Promise<RunLock> => {
			const lock = await RunLock.take(dataDir, GUILD, { workers: { count, ids }, what: `run ${ids.join(',')}` });
			locks.push(lock);
			return lock;
		};

		it('runs holding other workers go on side by side, each with a lock file per worker', async () => {
			const first = await held([0, 1]);
			const second = await held([3, 2]);
			expect(first.paths).toEqual([RunLock.pathOf(dataDir, GUILD, 0), RunLock.pathOf(dataDir, GUILD, 1)]);
			expect(second.paths).toEqual([RunLock.pathOf(dataDir, GUILD, 2), RunLock.pathOf(dataDir, GUILD, 3)]);
			expect(second.path).toMatch(/run\.w2\.lock$/);
		});

		it('a run sharing a worker with a running one is refused, naming the worker, and keeps none of its files', async () => {
			await held([1, 2]);
			await expect(RunLock.take(dataDir, GUILD, { workers: { count: 4, ids: [0, 2] } })).rejects.toMatchObject({
				code: ErrorCodes.JobRunning,
				message: expect.stringContaining('on this guild with worker 2 (run 1,2)'),
			});
			await expect(stat(RunLock.pathOf(dataDir, GUILD, 0))).rejects.toMatchObject({ code: 'ENOENT' });
			await held([0, 3]);
		});

		it('a run holding every worker and one holding some refuse each other, whichever comes first', async () => {
			const some = await held([2]);
			await expect(RunLock.take(dataDir, GUILD, { workers: { count: 4, ids: [0, 1, 2, 3] } })).rejects.toMatchObject({
				message: expect.stringContaining('with worker 2'),
			});
			await expect(stat(RunLock.pathOf(dataDir, GUILD))).rejects.toMatchObject({ code: 'ENOENT' });
			await some.release();
			const all = await take('massnick run restore');
			await expect(RunLock.take(dataDir, GUILD, { workers: { count: 4, ids: [3] } })).rejects.toMatchObject({
				message: expect.stringContaining('(massnick run restore)'),
			});
			await expect(stat(RunLock.pathOf(dataDir, GUILD, 3))).rejects.toMatchObject({ code: 'ENOENT' });
			await all.release();
			await held([3]);
		});

		it("a stale worker's lock does not stop a whole-guild run, and is taken over by the next run of that worker", async () => {
			const path = RunLock.pathOf(dataDir, GUILD, 1);
			await mkdir(dirname(path), { recursive: true });
			await writeFile(path, JSON.stringify({ pid: 1, host: 'a-killed-pod', startedAt: new Date().toISOString(), nonce: 'old' }));
			const old = new Date(Date.now() - 61_000);
			await utimes(path, old, old);
			const all = await take();
			await all.release();
			const lock = await held([1]);
			expect(JSON.parse(await readFile(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
		});
	});
});
