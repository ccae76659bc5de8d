import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { groupFleetJobs, readFleetJobs } from '../../../src/jobs/fleetJobs.js';
import { Journal, type JournalState } from '../../../src/jobs/journal/Journal.js';
import { FLEET_GUILD, fleetFile, fleetHeader } from '../../support/fleetJournals.js';

describe('groupFleetJobs', () => {
	it('puts the parts each process named itself into one job by what they do, newest job first', () => {
		const jobs = groupFleetJobs([
			fleetFile('a0', 0, 'finished', { startedAt: '2026-12-01T10:00:01.000Z' }),
			fleetFile('old', 0, 'restored', { target: 'Old {username}', startedAt: '2026-11-01T10:00:00.000Z' }),
			fleetFile('a1', 1, 'running', { startedAt: '2026-12-01T10:00:00.500Z' }),
		]);
		expect(jobs.map((job) => job.header.target)).toEqual(['Fleet {username}', 'Old {username}']);
		const [fleet] = jobs;
		expect([...fleet!.parts].map(([worker, part]) => [worker, part.header.jobId])).toEqual([
			[0, 'a0'],
			[1, 'a1'],
		]);
		expect(fleet!.missing).toEqual([2]);
		expect(fleet!.state).toBe('running');
		expect(fleet!.startedAt).toBe('2026-12-01T10:00:00.500Z');
	});

	it('keeps apart jobs with the same target and other filters or another split', () => {
		const jobs = groupFleetJobs([
			fleetFile('a', 0, 'running'),
			fleetFile('b', 1, 'running', { onlyRoleId: '42' }),
			fleetFile('c', 2, 'running', { workers: 4 }),
		]);
		expect(jobs).toHaveLength(3);
	});

	it("takes each worker's newest part: a rerun after a restore is the job, not the undone run", () => {
		const [job] = groupFleetJobs([
			fleetFile('first0', 0, 'restored'),
			fleetFile('first1', 1, 'restored'),
			fleetFile('again0', 0, 'finished', { startedAt: '2026-12-02T10:00:00.000Z' }),
		]);
		expect(job!.parts.get(0)!.header.jobId).toBe('again0');
		expect(job!.parts.get(1)!.header.jobId).toBe('first1');
		expect(job!.state).toBe('running'); // worker 2 has not started the rerun
	});

	it('is finished once every worker has a finished part, cancelled if one was cancelled, restored once all are undone', () => {
		const parts = (state: JournalState, last: JournalState = state) => [fleetFile('x0', 0, state), fleetFile('x1', 1, state), fleetFile('x2', 2, last)];
		expect(groupFleetJobs(parts('finished'))[0]!.state).toBe('finished');
		expect(groupFleetJobs(parts('finished', 'cancelled'))[0]!.state).toBe('cancelled');
		expect(groupFleetJobs(parts('restored'))[0]!.state).toBe('restored');
		expect(groupFleetJobs(parts('restored', 'finished'))[0]!.state).toBe('finished');
	});

	it("takes a whole-guild file (a process that held every worker) as every worker's part", () => {
		const [job] = groupFleetJobs([fleetFile('whole', undefined, 'finished')]);
		expect([...job!.parts.keys()]).toEqual([0, 1, 2]);
		expect(job!.missing).toEqual([]);
		expect(job!.state).toBe('finished');
	});
});

describe('readFleetJobs', () => {
	const dirs: string[] = [];
	afterEach(() => {
		for (const dir of dirs.splice(0)) {
			chmodSync(dir, 0o700);
			rmSync(dir, { recursive: true, force: true });
		}
	});
	const volume = (): string => {
		const dir = mkdtempSync(join(tmpdir(), 'massnick-fleetjobs-'));
		dirs.push(dir);
		return dir;
	};

	it("finds every pod's files in its folder of the volume, and writes nothing there", async () => {
		const root = volume();
		const { type: _type, version: _version, ...input } = fleetHeader('pod0');
		for (const worker of [0, 1]) {
			mkdirSync(join(root, `worker-${worker}`));
			const journal = await Journal.create(join(root, `worker-${worker}`), { ...input, jobId: `pod${worker}` }, { workerId: worker });
			await journal.recordOriginals([{ id: String(1n << 40n), from: null, to: 'Fleet x' }]);
			if (worker === 0) await journal.markFinished();
			await journal.close();
		}
		mkdirSync(join(root, 'worker-2')); // its pod has not started
		const listing = () => readdirSync(root, { recursive: true }).sort();
		const before = listing();
		chmodSync(root, 0o500);

		const [job, ...others] = await readFleetJobs(root, FLEET_GUILD);
		expect(others).toEqual([]);
		expect(job!.header.title).toBe('Renaming to “Fleet {username}”');
		expect([...job!.parts].map(([worker, part]) => [worker, part.state])).toEqual([
			[0, 'finished'],
			[1, 'running'],
		]);
		expect(job!.missing).toEqual([2]);
		expect(listing()).toEqual(before);
	});

	it('skips a folder it cannot read, saying which, and still finds the others', async () => {
		const root = volume();
		const { type: _type, version: _version, ...input } = fleetHeader('pod0');
		await (await Journal.create(join(root, 'worker-0'), input, { workerId: 0 })).close();
		// Where a guild folder should be, a file: listing it fails (ENOTDIR), as an unreadable folder would.
		mkdirSync(join(root, 'lost+found'));
		writeFileSync(join(root, 'lost+found', FLEET_GUILD), '');
		const warnings: string[] = [];
		const [job] = await readFleetJobs(root, FLEET_GUILD, { onWarning: (message) => warnings.push(message) });
		expect([...job!.parts.keys()]).toEqual([0]);
		expect(warnings).toEqual([expect.stringMatching(/lost\+found skipped: .*ENOTDIR/)]);
	});

	it('says which folder cannot be read and what to do, with its own error code', async () => {
		const missing = join(volume(), 'not-mounted');
		const error = await readFleetJobs(missing, FLEET_GUILD).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(JobError);
		expect((error as JobError).code).toBe(ErrorCodes.FleetJournalsUnreadable);
		expect((error as JobError).message).toContain(`FLEET_JOURNALS_DIR=${missing}`);
		expect((error as JobError).message).toContain('ENOENT');
		expect((error as JobError).message).toContain('mount the volume');
	});
});
