import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobJournal, type JournalHolding } from '../../../src/jobs/journal/JobJournal.js';
import { Journal, type JournalHeaderInput } from '../../../src/jobs/journal/Journal.js';
import { parseRecord } from '../../../src/jobs/journal/records.js';
import { groupFleetJobs } from '../../../src/jobs/fleetJobs.js';
import { chooseFleetScope } from '../../../src/workers/chooseFleetScope.js';

const GUILD = '175928847299117063';
const ALL: JournalHolding = chooseFleetScope(2, [0, 1]);

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-stopped-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

function header(jobId: string, startedAt = '2026-01-01T00:00:00.000Z'): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: 'x {username}',
		title: 'Renaming',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'a' },
		startedAt,
		workers: 2,
	};
}

const entry = { id: '300000000000000001', from: 'old', to: 'x a' };

describe('a journal stopped by a shutdown', () => {
	it('reads as stopped, not cancelled: unfinished, for a resume', async () => {
		const journal = await Journal.create(dataDir, header('job-1'));
		await journal.recordOriginals([entry]);
		await journal.markStopped({ total: 5, changed: 1 });
		await journal.close();
		const [summary] = await JobJournal.list(dataDir, GUILD, ALL);
		expect(summary).toMatchObject({ state: 'stopped', counts: { total: 5, changed: 1 } });
		expect(parseRecord('{"type":"status","state":"stopped","at":"2026-01-01T00:00:00.000Z"}')).toMatchObject({ state: 'stopped' });
		expect(parseRecord('{"type":"status","state":"paused","at":"2026-01-01T00:00:00.000Z"}')).toBe('has an unknown state "paused"');
	});

	it('is running again once a resume journals a member after the stop', async () => {
		const journal = await Journal.create(dataDir, header('job-1'));
		await journal.markStopped();
		await journal.recordOriginals([entry]);
		await journal.close();
		expect((await JobJournal.list(dataDir, GUILD, ALL))[0]?.state).toBe('running');
	});

	it('makes a job whose files differ stopped when none runs and one stopped, before cancelled', async () => {
		for (const [workerId, end] of [
			[0, 'stopped'],
			[1, 'cancelled'],
		] as const) {
			const journal = await Journal.create(dataDir, header('job-1'), { workerId });
			await (end === 'stopped' ? journal.markStopped() : journal.markCancelled());
			await journal.close();
		}
		expect((await JobJournal.list(dataDir, GUILD, ALL))[0]?.state).toBe('stopped');
		expect(groupFleetJobs(await Journal.list(dataDir, GUILD))[0]?.state).toBe('stopped');
	});

	it('is closed as cancelled by cancelUnfinished, which leaves an ended file as it is', async () => {
		const stopped = await Journal.create(dataDir, header('job-1'), { workerId: 0 });
		await stopped.recordOriginals([entry]);
		await stopped.markStopped();
		await stopped.close();
		const finished = await Journal.create(dataDir, header('job-1'), { workerId: 1 });
		await finished.markFinished();
		await finished.close();
		const [summary] = await JobJournal.list(dataDir, GUILD, ALL);
		await JobJournal.cancelUnfinished(dataDir, summary!);
		const after = await JobJournal.list(dataDir, GUILD, ALL);
		expect(after[0]?.state).toBe('cancelled');
		expect(after[0]?.files.map((file) => file.state)).toEqual(['cancelled', 'finished']);
	});
});
