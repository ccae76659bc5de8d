import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, type JournalHeaderInput } from '../../../../src/jobs/journal/Journal.js';
import { deleteRestoredJournals, journalsOnDisk } from '../../../../src/jobs/journal/journalsOnDisk.js';

const GUILD = '175928847299117063';
const OTHER_GUILD = '81384788765712384';
const DAY_MS = 24 * 60 * 60 * 1000;

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-retention-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

function header(jobId: string, guildId = GUILD, startedAt = '2026-01-01T00:00:00.000Z'): JournalHeaderInput {
	return {
		jobId,
		guildId,
		action: 'nickname',
		target: 'x {username}',
		title: 'Renaming to “x {username}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'a' },
		startedAt,
		workers: 2,
	};
}

async function journal(jobId: string, end: 'restored' | 'finished' | 'running', guildId = GUILD): Promise<string> {
	const created = await Journal.create(dataDir, header(jobId, guildId));
	await created.recordOriginals([{ id: '300000000000000001', from: 'old', to: 'x a' }]);
	if (end === 'restored') await created.markRestored();
	if (end === 'finished') await created.markFinished();
	await created.close();
	return created.path;
}

describe('journals on disk', () => {
	it('lists every guild folder’s journals with size and state; only a restored one gets a deletion date', async () => {
		await journal('restored-job', 'restored');
		await journal('finished-job', 'finished');
		await journal('other-guild-job', 'running', OTHER_GUILD);
		const found = await journalsOnDisk(dataDir, { deleteRestoredAfterDays: 30 });
		const byJob = new Map(found.map((entry) => [entry.header.jobId, entry]));
		expect([...byJob.keys()].sort()).toEqual(['finished-job', 'other-guild-job', 'restored-job']);
		expect(byJob.get('restored-job')!.state).toBe('restored');
		const restoredAt = Date.parse(byJob.get('restored-job')!.endedAt!);
		expect(byJob.get('restored-job')!.deleteAfter!.getTime()).toBe(restoredAt + 30 * DAY_MS);
		expect(byJob.get('finished-job')!.deleteAfter).toBeUndefined();
		expect(byJob.get('other-guild-job')!.deleteAfter).toBeUndefined();
		expect(byJob.get('finished-job')!.bytes).toBeGreaterThan(100);
	});

	it('deletes a restored journal once its days have passed, and never one that /restore may still need', async () => {
		const restored = await journal('restored-job', 'restored');
		const finished = await journal('finished-job', 'finished');
		const running = await journal('running-job', 'running');

		const early = await deleteRestoredJournals(dataDir, { deleteRestoredAfterDays: 30, now: () => Date.now() + 29 * DAY_MS });
		expect(early).toEqual([]);
		expect(existsSync(restored)).toBe(true);

		const due = await deleteRestoredJournals(dataDir, { deleteRestoredAfterDays: 30, now: () => Date.now() + 31 * DAY_MS });
		expect(due.map((entry) => entry.header.jobId)).toEqual(['restored-job']);
		expect(existsSync(restored)).toBe(false);
		expect(existsSync(finished)).toBe(true);
		expect(existsSync(running)).toBe(true);
	});

	it('an empty or missing data folder has nothing on disk', async () => {
		expect(await journalsOnDisk(join(dataDir, 'missing'), { deleteRestoredAfterDays: 1 })).toEqual([]);
		expect(await deleteRestoredJournals(dataDir, { deleteRestoredAfterDays: 0 })).toEqual([]);
	});
});
