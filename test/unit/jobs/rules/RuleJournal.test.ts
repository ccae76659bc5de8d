import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobJournal } from '../../../../src/jobs/journal/JobJournal.js';
import type { JournalHeaderInput } from '../../../../src/jobs/journal/Journal.js';
import type { EntryLife, MassAction } from '../../../../src/jobs/MassAction.js';
import type { RestoreEntry } from '../../../../src/jobs/Plan.js';
import { COMPACTION_GROWTH, RuleJournal } from '../../../../src/jobs/rules/RuleJournal.js';
import { chooseFleetScope } from '../../../../src/workers/chooseFleetScope.js';
import { waitUntil } from '../../../support/waitUntil.js';

const GUILD = '175928847299117063';
const ROLE = '300000000000000009';

let dataDir: string;
let journal: JobJournal;
beforeEach(async () => {
	dataDir = mkdtempSync(join(tmpdir(), 'massnick-rulejournal-'));
	journal = await JobJournal.create(dataDir, header(), chooseFleetScope(1, [0]));
});
afterEach(async () => {
	await journal.close();
	rmSync(dataDir, { recursive: true, force: true });
});

function header(): JournalHeaderInput {
	return {
		jobId: 'rule',
		guildId: GUILD,
		action: 'role-add',
		target: ROLE,
		title: 'Adding @Member',
		onlyRoleId: null,
		excludeRoleId: null,
		startedBy: { id: '1', tag: 'alice' },
		startedAt: '2026-12-01T00:00:00.000Z',
		workers: 1,
	};
}

const id = (n: number): string => String((100_000_000_000n + BigInt(n)) << 22n);
const joiners = (from: number, count: number): RestoreEntry[] => Array.from({ length: count }, (_, n) => ({ id: id(from + n), from: null, to: ROLE }));
const action = (entryLife?: EntryLife): MassAction => ({ type: 'role-add', entryLife }) as unknown as MassAction;
const lines = (): Array<{ type: string; id?: string }> =>
	readFileSync(journal.paths[0]!, 'utf8')
		.trimEnd()
		.split('\n')
		.map((line) => JSON.parse(line) as { type: string; id?: string });

function rule(options: { entryLife?: EntryLife; following?: () => boolean; compactAboveBytes?: number } = {}): RuleJournal {
	return new RuleJournal({
		journal,
		action: action(options.entryLife ?? { lostOnLeave: true }),
		compactAboveBytes: options.compactAboveBytes ?? 2048,
		following: options.following ?? (() => true),
		logger: pino({ level: 'silent' }),
	});
}

/** Journals `entries` as a rule's change does: the write, then the check. */
async function change(kept: RuleJournal, entries: RestoreEntry[]): Promise<void> {
	await journal.recordOriginals(entries);
	kept.written();
}

describe('a standing rule’s journal', () => {
	it('is compacted once a file is past compactAboveBytes, then again only once it has grown twice its compacted size', async () => {
		const kept = rule();
		// About 86 bytes a line and 300 of header: ten joiners and their leaving stay under 2 KiB.
		await change(kept, joiners(0, 10));
		for (let n = 0; n < 10; n++) kept.memberLeft(id(n));
		await waitUntil(() => journal.size === 0, { what: 'the leavers forgotten' });
		await change(kept, []);
		expect(journal.sizes[0]!.bytes).toBeLessThan(2048);
		expect(kept.compactions).toEqual([]);
		await change(kept, joiners(100, 10));
		await waitUntil(() => kept.compactions.length === 1, { what: 'the first compaction' });
		expect(kept.compactions[0]).toMatchObject({ entries: 10, dropped: 10 });
		const { compactedBytes } = journal.sizes[0]!;
		expect(
			lines()
				.filter((line) => line.type === 'original')
				.map((line) => line.id),
		).toEqual(joiners(100, 10).map((entry) => entry.id));

		// Below twice the compacted size: not yet.
		while (journal.sizes[0]!.bytes + 100 <= COMPACTION_GROWTH * compactedBytes) await change(kept, joiners(1000 + journal.size, 1));
		expect(kept.compactions).toHaveLength(1);
		await change(kept, joiners(5000, 2));
		await waitUntil(() => kept.compactions.length === 2, { what: 'the second compaction' });
		await kept.stop();
	});

	it('is not compacted while the rule still sweeps: the sweep journals each member once', async () => {
		let following = false;
		const kept = rule({ following: () => following });
		await change(kept, joiners(0, 60));
		expect(kept.compactions).toEqual([]);
		following = true;
		await change(kept, joiners(100, 1));
		await waitUntil(() => kept.compactions.length === 1, { what: 'the compaction once the rule follows joins' });
		await kept.stop();
	});

	it('journals a left line for a member who leaves only when the action says what it set leaves with them', async () => {
		const nickRule = rule();
		await change(nickRule, joiners(0, 2));
		nickRule.memberLeft(id(0));
		nickRule.memberLeft(id(7));
		await waitUntil(() => lines().some((line) => line.type === 'left'), { what: 'the left line' });
		expect(journal.size).toBe(1);

		const kickRule = rule({ entryLife: {} });
		kickRule.memberLeft(id(1));
		await change(kickRule, []);
		expect(lines().filter((line) => line.type === 'left')).toEqual([{ type: 'left', id: id(0) }]);
		expect(journal.originalOf(id(1))).toBeNull();
	});

	it('stop waits for the compaction under way, and no other starts after it', async () => {
		const kept = rule({ compactAboveBytes: 1024 });
		// Past the size: the compaction starts with this write's check, and stop waits for its end.
		await change(kept, joiners(0, 40));
		await kept.stop();
		expect(kept.compactions).toHaveLength(1);
		await change(kept, joiners(100, 200));
		expect(kept.compactions).toHaveLength(1);
	});
});
