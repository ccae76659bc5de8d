import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { journalsSection } from '../../../src/doctor/journalsSection.js';
import { Journal } from '../../../src/jobs/journal/Journal.js';

const GUILD = '175928847299117063';
const DAY_MS = 24 * 60 * 60 * 1000;

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-doctor-journals-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

async function journal(jobId: string, title: string, end?: 'restored'): Promise<void> {
	const created = await Journal.create(dataDir, {
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
	});
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
