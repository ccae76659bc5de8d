import type { JobJournalSummary } from '../journal/JobJournal.js';
import type { JournalHeader } from '../journal/Journal.js';
import type { RestoreRecord } from '../journal/runRecord.js';
import type { GuildJournals } from './GuildJournals.js';
import type { RunRecordStore } from './RunRecordStore.js';

/** A /restore a restart cut short, with who ran it. */
export interface InterruptedRestore {
	readonly summary: JobJournalSummary;
	readonly restore: RestoreRecord;
}

/**
 * The /restore a restart cut short: the newest journal not restored yet whose job can be undone
 * (`irreversible` says which cannot: no restore ever starts on those), whose run record says who
 * ran its restore and holds no end of it. Not job `runningId`'s.
 */
export async function interruptedRestore(
	journals: GuildJournals,
	records: RunRecordStore,
	runningId: string | undefined,
	irreversible: (header: JournalHeader) => boolean = () => false,
): Promise<InterruptedRestore | undefined> {
	const summary = (await journals.list()).find((journal) => journal.state !== 'restored' && !irreversible(journal.header));
	if (!summary || summary.header.jobId === runningId) return undefined;
	const record = await records.read(summary.header.jobId);
	if (!record?.restore || record.restoreEndedAt !== undefined) return undefined;
	return { summary, restore: record.restore };
}
