import type { JournalHeader } from '../journal/Journal.js';
import type { RunRecord } from '../journal/runRecord.js';
import type { GuildJournals } from '../run/GuildJournals.js';
import type { RunRecordStore } from '../run/RunRecordStore.js';
import type { ResumeInput } from './ResumeInput.js';

/** What {@link decideResume} reads of the disk: this process's journals, newest first, and the run record beside each. */
export type ResumeDisk = Pick<ResumeInput, 'journals' | 'records' | 'runningId' | 'irreversible'>;

/**
 * Reads the journals this process holds and their run records, for {@link decideResume}. Job
 * `runningId`, if any, runs now: no restart's to resume. `irreversible` says which journals'
 * jobs Discord cannot undo (a kick).
 */
export async function readResumeInput(
	journals: GuildJournals,
	records: RunRecordStore,
	runningId: string | undefined,
	irreversible: (header: JournalHeader) => boolean = () => false,
): Promise<ResumeDisk> {
	const listed = await journals.list();
	// Read side by side: a guild keeps a journal per job until 30 days after its restore.
	const read = await Promise.all(listed.map(async (journal) => [journal.header.jobId, await records.read(journal.header.jobId)] as const));
	const found = new Map<string, RunRecord>(read.flatMap(([jobId, record]) => (record ? [[jobId, record] as const] : [])));
	const cannotUndo = new Set(listed.filter((journal) => irreversible(journal.header)).map((journal) => journal.header.jobId));
	return { journals: listed, records: found, runningId, irreversible: cannotUndo };
}
