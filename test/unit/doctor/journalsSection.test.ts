import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fleetJournalsSection } from '../../../src/doctor/fleetJournalsSection.js';
import { journalsSection } from '../../../src/doctor/journalsSection.js';
import { Journal } from '../../../src/jobs/Journal.js';

const GUILD = '175928847299117063';
const DAY_MS = 24 * 60 * 60 * 1000;

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-doctor-journals-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

async function journal(jobId: string, title: string, end?: 'restored', where = dataDir, workerId?: number): Promise<void> {
	const created = await Journal.create(where, {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: 'x',
		title,
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'alice' },
		startedAt: '2026-11-30T10:00:00.000Z',
		workers: 2,
	}, { workerId });
	await created.recordOriginals([{ id: '300000000000000001', from: 'old', to: 'x' }]);
	if (end) await created.markRestored();
	await created.close();
}

describe('the doctor’s journals section', () => {
	it('lists each journal with its job, who ran it, its state and when it will be deleted', async () => {
		await journal('kept', 'Renaming to “x”');
		await journal('undone', 'Adding @Event', 'restored');
		const lines = await journalsSection({ dataDir, journal: { deleteRestoredAfterDays: 30 } })();
		expect(lines[0]).toContain(dataDir);
		const kept = lines.find((line) => line.includes('kept.jsonl'))!;
		expect(kept).toMatch(/Renaming to “x”, by alice 2026-11-30, running, \d+ B: kept until \/restore undoes it/);
		const undone = lines.find((line) => line.includes('undone.jsonl'))!;
		const due = new Date(Date.now() + 30 * DAY_MS).toISOString().slice(0, 10);
		expect(undone).toContain(`Adding @Event, by alice 2026-11-30, restored`);
		expect(undone).toContain(`restored; deleted after ${due}`);
	});

	it('says when there are none, and when a restored one is already due', async () => {
		expect(await journalsSection({ dataDir, journal: { deleteRestoredAfterDays: 30 } })()).toEqual([expect.stringContaining('Journals on disk'), '  none']);
		await journal('undone', 'Adding @Event', 'restored');
		const lines = await journalsSection({ dataDir, journal: { deleteRestoredAfterDays: 0 } })();
		expect(lines.find((line) => line.includes('undone.jsonl'))).toContain('deleted at the next start or daily check');
	});
});

describe('the doctor’s section on FLEET_JOURNALS_DIR', () => {
	it('is left out when the key is unset', async () => {
		expect(await fleetJournalsSection({ fleetJournalsDir: undefined, guildId: GUILD })()).toEqual([]);
	});

	it("lists the fleet's jobs as /status finds them, with each worker's part", async () => {
		await journal('pod0', 'Renaming to “x”', undefined, join(dataDir, 'worker-0'), 0);
		const lines = await fleetJournalsSection({ fleetJournalsDir: dataDir, guildId: GUILD })();
		expect(lines[0]).toContain(`FLEET_JOURNALS_DIR=${dataDir}, read-only`);
		expect(lines[1]).toBe('  Renaming to “x”, by alice 2026-11-30, 2 workers: 0 running; 1 not started');
	});

	it('says plainly when the folder cannot be read', async () => {
		const lines = await fleetJournalsSection({ fleetJournalsDir: join(dataDir, 'not-mounted'), guildId: GUILD })();
		expect(lines[1]).toMatch(/^ {2}! The fleet's journals \(FLEET_JOURNALS_DIR=.*not-mounted\) cannot be read \(ENOENT\): mount the volume/);
	});
});
