import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NicknameAction } from '../../../src/actions/nickname/NicknameAction.js';
import { parseTemplate } from '../../../src/actions/shared/nicknameEdits/index.js';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { JobJournal } from '../../../src/jobs/journal/JobJournal.js';
import type { JournalHeaderInput } from '../../../src/jobs/journal/Journal.js';
import { actionToUndo, newestOpen, noJournalError, scanJournal } from '../../../src/jobs/restoreQueries.js';
import { chooseFleetScope } from '../../../src/workers/chooseFleetScope.js';

const GUILD = '175928847299117063';
const HOLDS_ALL = chooseFleetScope(2, [0, 1]);
const WORKER_0 = chooseFleetScope(2, [0]);
const WORKER_1 = chooseFleetScope(2, [1]);
let dataDir: string;

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-restore-'));
});

afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

function header(jobId: string, startedAt: string): JournalHeaderInput {
	return {
		jobId,
		guildId: GUILD,
		action: 'nickname',
		target: '🎃 {username}',
		title: 'Renaming to “🎃 {username}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'alice' },
		startedAt,
		workers: 2,
	};
}

/** A member id owned by worker `worker` of 2: the split is the id's creation time modulo 2. */
const idOf = (n: number, worker: number): string => String(((100_000_000_000n + BigInt(n) * 2n + BigInt(worker)) << 22n) + 1n);

describe('the journal queries both restore paths share', () => {
	it('newestOpen is the newest journal not undone yet, none when every one was', async () => {
		const old = await JobJournal.create(dataDir, header('20210401T000000Z-nickname-1', '2021-04-01T00:00:00.000Z'), HOLDS_ALL);
		await old.close();
		const newer = await JobJournal.create(dataDir, header('20210402T000000Z-nickname-2', '2021-04-02T00:00:00.000Z'), HOLDS_ALL);
		await newer.mark('restored', () => undefined);
		await newer.close();
		const journals = await JobJournal.list(dataDir, GUILD, HOLDS_ALL);
		expect(journals.map((summary) => summary.state)).toEqual(['restored', 'running']);
		expect(newestOpen(journals)?.header.jobId).toBe('20210401T000000Z-nickname-1');
		expect(newestOpen(journals.slice(0, 1))).toBeUndefined();
	});

	it('scanJournal reads every worker’s file of a fleet job: the wanted entries and how many there are', async () => {
		const input = header('20210403T000000Z-nickname-3', '2021-04-03T00:00:00.000Z');
		for (const [holding, worker] of [
			[WORKER_0, 0],
			[WORKER_1, 1],
		] as const) {
			const journal = await JobJournal.create(dataDir, input, holding);
			await journal.recordOriginals([1, 2, 3].map((n) => ({ id: idOf(n, worker), from: `was ${n}`, to: `🎃 ${n}` })));
			await journal.close();
		}
		const [summary] = await JobJournal.list(dataDir, GUILD, HOLDS_ALL);
		expect(summary!.files).toHaveLength(2);
		const { found, entries } = await scanJournal(summary!, new Set([idOf(2, 0), idOf(3, 1), '1']));
		expect(entries).toBe(6);
		expect([...found.keys()].sort()).toEqual([idOf(2, 0), idOf(3, 1)].sort());
		expect(found.get(idOf(3, 1))).toEqual({ id: idOf(3, 1), from: 'was 3', to: '🎃 3' });
	});

	it('actionToUndo rebuilds the action, or refuses a journal of an unknown action naming it', () => {
		const nickname = new NicknameAction(parseTemplate('🎃 {username}'));
		const known = header('j-1', '2021-04-01T00:00:00.000Z');
		expect(actionToUndo({ ...known, type: 'job', version: 3 }, () => nickname)).toBe(nickname);
		let error: unknown;
		try {
			actionToUndo({ ...known, type: 'job', version: 3, action: 'timeout' }, () => undefined);
		} catch (caught) {
			error = caught;
		}
		expect((error as JobError).code).toBe(ErrorCodes.JournalCorrupt);
		expect((error as JobError).message).toMatch(/an action this massnick does not know \(timeout\)/);
		expect((error as JobError).context).toEqual({ jobId: 'j-1', action: 'timeout' });
	});

	it('noJournalError says nothing is left, with what to do', () => {
		expect(noJournalError('Run /restore with name:.')).toBeInstanceOf(JobError);
		expect(noJournalError('Run /restore with name:.').message).toBe(
			'There is no journal of a job to undo: nothing massnick changed is left to restore. Run /restore with name:.',
		);
		expect(noJournalError().message).toBe('There is no journal of a job to undo: nothing massnick changed is left to restore.');
	});
});
