import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseNicknameAction } from '../../../../src/actions/nickname/parseNicknameAction.js';
import type { BossContext } from '../../../../src/boss/BossContext.js';
import { pendingRestore } from '../../../../src/boss/preview/pendingRestore.js';
import type { MemberRecord } from '../../../../src/discord/MemberRecord.js';
import { JobJournal, type JobJournalSummary, type JournalHolding } from '../../../../src/jobs/journal/JobJournal.js';
import { workerIndexOf } from '../../../../src/workers/partition.js';
import { guildContext } from '../../../support/guildContext.js';
import { chooseFleetScope } from '../../../../src/workers/chooseFleetScope.js';

const GUILD = '175928847299117063';
const TEMPLATE = 'x {username}';
const action = parseNicknameAction(TEMPLATE, 32);
const ctx = guildContext({ guildId: GUILD, ownerId: '1', workerHighestPosition: 10 });

/** Member i: a snowflake made at millisecond 10^11 + i, so owners go round the workers. */
function member(i: number): MemberRecord {
	const id = String((100_000_000_000n + BigInt(i)) << 22n);
	return { id, username: `user${i}`, globalName: null, nick: `x user${i}`, roles: [], bot: false };
}

/** What the boss's handlers use of the job manager, over journals on disk. */
function contextOf(summary: JobJournalSummary): BossContext {
	return {
		jobs: { journals: { toUndo: async () => ({ summary, action }) }, actionOf: () => action },
		logger: pino({ level: 'silent' }),
	} as unknown as BossContext;
}

describe('pendingRestore', () => {
	let dataDir: string;
	beforeEach(async () => {
		dataDir = await mkdtemp(join(tmpdir(), 'massnick-pending-restore-'));
	});
	afterEach(async () => {
		await rm(dataDir, { recursive: true, force: true });
	});

	it("a fleet's journal of one file per worker: the sample finds members in every file, and the estimate counts them all", async () => {
		const holding: JournalHolding = chooseFleetScope(4, [1, 3]);
		const members = Array.from({ length: 40 }, (_, i) => member(i)).filter((each) => holding.ids.includes(workerIndexOf(each.id, 4)));
		const journal = await JobJournal.create(
			dataDir,
			{
				jobId: 'job-1',
				guildId: GUILD,
				action: 'nickname',
				target: TEMPLATE,
				title: 'Renaming to “x {username}”',
				onlyRoleId: null,
				excludeRoleId: null,
				startedBy: { id: '1', tag: 'alice' },
				startedAt: '2026-01-01T00:00:00.000Z',
				workers: 4,
			},
			holding,
		);
		await journal.recordOriginals(members.map((each) => ({ id: each.id, from: null, to: each.nick })));
		await journal.close();
		const [summary] = await JobJournal.list(dataDir, GUILD, holding);
		expect(summary!.files).toHaveLength(2);

		const pending = await pendingRestore(contextOf(summary!), { noJournalHint: '' });
		const plans = await pending.planSample(members, ctx);
		expect(plans.filter((plan) => plan.action === 'change')).toHaveLength(members.length);
		expect(new Set(members.map((each) => workerIndexOf(each.id, 4)))).toEqual(new Set([1, 3]));
		expect(pending.estimate({ members: 100, roleMembers: {}, ourBots: [] }, ctx)).toEqual({ change: { atLeast: 0, atMost: members.length } });
	});
});
