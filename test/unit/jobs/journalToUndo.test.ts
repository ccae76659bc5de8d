import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KickAction } from '../../../src/actions/kick/KickAction.js';
import { NicknameAction } from '../../../src/actions/nickname/NicknameAction.js';
import { parseTemplate } from '../../../src/actions/shared/nicknameEdits/index.js';
import { ErrorCodes, JobError } from '../../../src/errors.js';
import { JobJournal } from '../../../src/jobs/journal/JobJournal.js';
import type { JournalHeader, JournalHeaderInput } from '../../../src/jobs/journal/Journal.js';
import { isIrreversible, journalToUndo } from '../../../src/jobs/journalToUndo.js';
import { chooseFleetScope } from '../../../src/workers/chooseFleetScope.js';

const GUILD = '175928847299117063';
const HOLDS_ALL = chooseFleetScope(1, [0]);
const HINT = 'run /restore with skip_irreversible:true';
let dataDir: string;

beforeEach(() => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-undo-'));
});
afterEach(() => {
	rmSync(dataDir, { recursive: true, force: true });
});

const rename = new NicknameAction(parseTemplate('🎃 {username}'));
const actionOf = (header: JournalHeader) =>
	header.action === 'kick' ? new KickAction({ askedAt: header.target }) : header.action === 'nickname' ? rename : undefined;

async function journal(action: 'kick' | 'nickname', startedAt: string, ids: readonly string[] = []): Promise<void> {
	const input: JournalHeaderInput = {
		jobId: `${startedAt.replaceAll(/\D/g, '')}-${action}`,
		guildId: GUILD,
		action,
		target: action === 'kick' ? startedAt : '🎃 {username}',
		title: action === 'kick' ? 'Kicking members' : 'Renaming to “🎃 {username}”',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '81384788765712384', tag: 'mod' },
		startedAt,
		workers: 1,
	};
	const created = await JobJournal.create(dataDir, input, HOLDS_ALL);
	await created.recordOriginals(ids.map((id) => ({ id, from: `user${id}`, to: action === 'kick' ? null : '🎃' })));
	await created.mark('finished', () => ({ changed: ids.length, failed: { 'missing-permissions': 1 } }));
	await created.close();
}

const list = () => JobJournal.list(dataDir, GUILD, HOLDS_ALL);
const ids = Array.from({ length: 7 }, (_, i) => String(300000000000000000n + BigInt(i)));

async function refusal(pastIrreversible = false): Promise<JobError> {
	const error = await journalToUndo(await list(), actionOf, { pastIrreversible, pastIrreversibleHint: HINT }).catch((caught: unknown) => caught);
	if (!(error instanceof JobError)) throw new Error(`expected a JobError, got ${String(error)}`);
	return error;
}

describe('journalToUndo', () => {
	it('undoes the newest job that can be undone, as before, when no kick is newer', async () => {
		await journal('nickname', '2026-04-01T00:00:00.000Z');
		await journal('kick', '2026-03-01T00:00:00.000Z', ids);
		const target = await journalToUndo(await list(), actionOf, { pastIrreversibleHint: HINT });
		expect(target?.summary.header.action).toBe('nickname');
		expect(target?.action).toBe(rename);
	});

	it('refuses a restore right after a kick, saying how many it kicked, the first ids, the journal, and the job it can undo instead', async () => {
		await journal('nickname', '2026-04-01T00:00:00.000Z');
		await journal('kick', '2026-05-01T00:00:00.000Z', ids);
		const error = await refusal();
		expect(error.code).toBe(ErrorCodes.NotUndoable);
		expect(error.message).toContain('The newest job, Kicking members (started by mod at 2026-05-01T00:00:00.000Z), cannot be undone.');
		expect(error.message).toContain('A kick cannot be undone: kicked members must be invited back.');
		expect(error.message).toContain(`Its journal keeps the 7 members it kicked (its last run: 7 kicked, 1 failed), the first ${ids.slice(0, 5).join(', ')} …`);
		expect(error.message).toContain((await list())[0]!.path);
		expect(error.message).toContain('Nothing was changed.');
		expect(error.message).toContain(
			`The job before it, Renaming to “🎃 {username}” (started by mod at 2026-04-01T00:00:00.000Z), can still be undone: to undo it, ${HINT}.`,
		);
	});

	it('counts a large kick as its preview did, with thousands separated', async () => {
		const many = Array.from({ length: 1200 }, (_, i) => String(300000000000000000n + BigInt(i)));
		await journal('kick', '2026-05-01T00:00:00.000Z', many);
		expect((await refusal()).message).toContain('Its journal keeps the 1,200 members it kicked (its last run: 1,200 kicked, 1 failed)');
	});

	it('past the kicks when asked: the newest job that can be undone; none left is undefined', async () => {
		await journal('nickname', '2026-04-01T00:00:00.000Z');
		await journal('kick', '2026-05-01T00:00:00.000Z', ids);
		await journal('kick', '2026-05-02T00:00:00.000Z', ids.slice(0, 1));
		expect((await refusal()).message).toContain('The newest job, Kicking members (started by mod at 2026-05-02T00:00:00.000Z)');
		const target = await journalToUndo(await list(), actionOf, { pastIrreversible: true, pastIrreversibleHint: HINT });
		expect(target?.summary.header.action).toBe('nickname');
	});

	it('with only kicks left, says no job before it is left to undo; past them, nothing is left', async () => {
		await journal('kick', '2026-05-01T00:00:00.000Z');
		const error = await refusal();
		expect(error.message).toContain('Its journal holds nobody: it changed no member.');
		expect(error.message).toContain('No job before it is left to undo.');
		expect(await journalToUndo(await list(), actionOf, { pastIrreversible: true, pastIrreversibleHint: HINT })).toBeUndefined();
	});

	it('isIrreversible tells a kick’s journal from a rename’s', async () => {
		await journal('kick', '2026-05-01T00:00:00.000Z');
		await journal('nickname', '2026-04-01T00:00:00.000Z');
		expect((await list()).map((summary) => isIrreversible(summary.header, actionOf))).toEqual([true, false]);
	});
});
