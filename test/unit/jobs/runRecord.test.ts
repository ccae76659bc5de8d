import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, type JournalHeaderInput } from '../../../src/jobs/journal/Journal.js';
import { deleteRestoredJournals } from '../../../src/jobs/journal/journalsOnDisk.js';
import {
	type OldBossNotes,
	parseRunFile,
	parseRunRecord,
	readRunFile,
	readRunRecord,
	type RunRecord,
	runRecordPath,
	writeRunRecord,
} from '../../../src/jobs/journal/runRecord.js';
import { RunRecordStore } from '../../../src/jobs/run/RunRecordStore.js';

const GUILD = '175928847299117063';

let dataDir: string;
beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-runrecord-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

const record: RunRecord = {
	startedBy: { id: '300000000000000001', tag: 'alice' },
	rank: { kind: 'member', userId: '300000000000000001', position: 3, roleName: 'Mod', roleId: '200000000000000003' },
	startedAt: '2026-01-01T00:00:00.000Z',
	resumes: ['2026-01-01T03:00:00.000Z'],
};

function header(jobId: string): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: 'x {username}',
		title: 'Renaming',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: record.startedBy,
		startedAt: '2026-01-01T00:00:00.000Z',
		workers: 2,
	};
}

describe('the run record beside a journal', () => {
	it('is read back as written, from <guild>/<job>.run.json, readable by its owner only, with no temporary file left', async () => {
		const journal = await Journal.create(dataDir, header('job-1'));
		await journal.close();
		await writeRunRecord(dataDir, GUILD, 'job-1', record);
		expect(await readRunRecord(dataDir, GUILD, 'job-1')).toEqual(record);
		const path = runRecordPath(dataDir, GUILD, 'job-1');
		expect(path).toBe(join(dataDir, GUILD, 'job-1.run.json'));
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(readdirSync(join(dataDir, GUILD)).sort()).toEqual(['job-1.jsonl', 'job-1.run.json']);
	});

	it('replaces the whole record on each write', async () => {
		await (await Journal.create(dataDir, header('job-1'))).close();
		await writeRunRecord(dataDir, GUILD, 'job-1', record);
		await writeRunRecord(dataDir, GUILD, 'job-1', { ...record, resumes: [], restoreStartedAt: '2026-01-02T00:00:00.000Z' });
		await writeRunRecord(dataDir, GUILD, 'job-1', { ...record, resumes: [] });
		expect(await readRunRecord(dataDir, GUILD, 'job-1')).toEqual({ ...record, resumes: [] });
	});

	it('is none when the file is missing, and none with a warning when it is not a record', async () => {
		await (await Journal.create(dataDir, header('job-1'))).close();
		expect(await readRunRecord(dataDir, GUILD, 'job-1')).toBeUndefined();
		writeFileSync(runRecordPath(dataDir, GUILD, 'job-1'), '{"startedBy":');
		const warnings: string[] = [];
		expect(await readRunRecord(dataDir, GUILD, 'job-1', (message) => warnings.push(message))).toBeUndefined();
		expect(warnings).toEqual([`${runRecordPath(dataDir, GUILD, 'job-1')} is not valid JSON; taken for no record`]);
	});

	it('says what a record lacks', () => {
		expect(parseRunRecord('[]')).toBe('has no startedBy id and tag');
		expect(parseRunRecord(JSON.stringify({ ...record, rank: { kind: 'member', userId: '1' } }))).toBe('has a member rank without a position');
		expect(parseRunRecord(JSON.stringify({ ...record, startedAt: 5 }))).toBe('has no startedAt');
		expect(parseRunRecord(JSON.stringify({ ...record, resumes: [1] }))).toBe('has no list of resumes');
		expect(parseRunRecord(JSON.stringify({ ...record, restore: 'alice' }))).toBe('has a restore that is not an object');
		expect(parseRunRecord(JSON.stringify({ ...record, restore: { ...record, startedAt: undefined } }))).toBe('has a restore that has no startedAt');
	});

	it("keeps who ran the job's /restore, for a restart to resume it", async () => {
		await (await Journal.create(dataDir, header('job-1'))).close();
		const restore = {
			startedBy: { id: '22', tag: 'bob' },
			rank: { kind: 'owner' as const, userId: '22' },
			startedAt: '2026-12-02T00:00:00.000Z',
			resumes: [],
		};
		await writeRunRecord(dataDir, GUILD, 'job-1', { ...record, restoreStartedAt: restore.startedAt, restore });
		expect(await readRunRecord(dataDir, GUILD, 'job-1')).toEqual({ ...record, restoreStartedAt: restore.startedAt, restore });
	});

	it('is no journal: the listing skips it', async () => {
		await (await Journal.create(dataDir, header('job-1'))).close();
		await writeRunRecord(dataDir, GUILD, 'job-1', record);
		const warnings: string[] = [];
		const listed = await Journal.list(dataDir, GUILD, { onWarning: (message) => warnings.push(message) });
		expect(listed.map((summary) => summary.header.jobId)).toEqual(['job-1']);
		expect(warnings).toEqual([]);
	});

	it('is deleted with its journal once the job is fully restored and past its keep time', async () => {
		const journal = await Journal.create(dataDir, header('job-1'));
		await journal.markRestored();
		await journal.close();
		await writeRunRecord(dataDir, GUILD, 'job-1', record);
		const deleted = await deleteRestoredJournals(dataDir, { deleteRestoredAfterDays: 0 });
		expect(deleted.map((summary) => summary.header.jobId)).toEqual(['job-1']);
		expect(readdirSync(join(dataDir, GUILD))).toEqual([]);
	});
});

describe('a run record an older massnick wrote, with the boss notes in it', () => {
	const old = {
		...record,
		channelId: '400000000000000001',
		statusMessage: { channelId: '400000000000000001', messageId: '500000000000000001' },
		notResumed: { at: '2026-01-01T04:00:00.000Z', reason: 'alice left', next: 'Run it again.' },
		restoreStartedAt: '2026-01-01T05:00:00.000Z',
		restore: { ...record, startedBy: { id: '22', tag: 'bob' }, channelId: '400000000000000002' },
	};
	const engineFacts: RunRecord = { ...record, restoreStartedAt: old.restoreStartedAt, restore: { ...record, startedBy: { id: '22', tag: 'bob' } } };

	it('is read as the engine facts, the notes apart as found', () => {
		expect(parseRunFile(JSON.stringify(old))).toEqual({
			record: engineFacts,
			oldNotes: {
				job: { channelId: old.channelId, statusMessage: old.statusMessage, notResumed: old.notResumed },
				restore: { channelId: '400000000000000002' },
			},
		});
		expect(parseRunRecord(JSON.stringify(old))).toEqual(engineFacts);
		expect(parseRunFile(JSON.stringify(record))).toEqual({ record });
	});

	it('keeps its notes through an update until the boss takes them, then is written without them', async () => {
		await (await Journal.create(dataDir, header('job-1'))).close();
		writeFileSync(runRecordPath(dataDir, GUILD, 'job-1'), JSON.stringify(old));
		const store = new RunRecordStore(dataDir, GUILD, pino({ level: 'silent' }));
		await store.update('job-1', { restoreEndedAt: '2026-01-01T06:00:00.000Z' });
		const kept = (await readRunFile(dataDir, GUILD, 'job-1'))!;
		expect(kept.record.restoreEndedAt).toBe('2026-01-01T06:00:00.000Z');
		expect(kept.oldNotes?.job.channelId).toBe(old.channelId);
		expect(kept.oldNotes?.restore).toEqual({ channelId: '400000000000000002' });

		// The boss failing to keep them leaves them in the record, to be handed over again.
		await expect(store.takeOldNotes('job-1', () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
		expect((await readRunFile(dataDir, GUILD, 'job-1'))!.oldNotes).toEqual(kept.oldNotes);

		const taken: OldBossNotes[] = [];
		await store.takeOldNotes('job-1', async (notes) => void taken.push(notes));
		expect(taken).toEqual([kept.oldNotes]);
		expect(await readRunFile(dataDir, GUILD, 'job-1')).toEqual({ record: kept.record });
		expect(JSON.parse(readFileSync(runRecordPath(dataDir, GUILD, 'job-1'), 'utf8'))).not.toHaveProperty('channelId');
		await store.takeOldNotes('job-1', async (notes) => void taken.push(notes));
		expect(taken).toHaveLength(1);
	});
});
