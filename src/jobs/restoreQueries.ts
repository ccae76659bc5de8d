import { ErrorCodes, JobError } from '../errors.js';
import type { JobJournalSummary } from './journal/JobJournal.js';
import type { JournalHeader } from './journal/Journal.js';
import { readEntryRecords } from './journal/readEntries.js';
import type { MassAction } from './MassAction.js';
import type { RestoreEntry } from './Plan.js';

/**
 * What a restore asks of the journals, in one place for both of its paths: the preview of
 * `/restore` and the restore itself (`JobManager.startRestore`), so both undo the same job and
 * refuse the same way.
 */

/** The newest journal not undone yet, of `journals` newest first: what a restore undoes. */
export function newestOpen(journals: readonly JobJournalSummary[]): JobJournalSummary | undefined {
	return journals.find((summary) => summary.state !== 'restored');
}

/** Nothing massnick changed is left to restore; `hint` says what the member or operator can do. */
export function noJournalError(hint = ''): JobError {
	return new JobError(ErrorCodes.NoJournal, `There is no journal of a job to undo: nothing massnick changed is left to restore.${hint ? ` ${hint}` : ''}`);
}

/**
 * The action that wrote the journal, rebuilt.
 *
 * @throws {JobError} `JOURNAL_CORRUPT` for an action this massnick does not know (a newer one wrote it).
 */
export function actionToUndo(header: JournalHeader, actionOf: (header: JournalHeader) => MassAction | undefined): MassAction {
	const action = actionOf(header);
	if (action) return action;
	throw new JobError(
		ErrorCodes.JournalCorrupt,
		`The newest journal (${header.jobId}) was written by an action this massnick does not know (${header.action}); run the massnick version that wrote it to restore it.`,
		{ context: { jobId: header.jobId, action: header.action } },
	);
}

/**
 * One pass over the job's journal, every file of it (one per worker in a fleet): the entries of
 * `ids` (the first per id wins, as in the restore's own index, since the member last joined) and how many members it holds,
 * keeping no more than those entries in memory. A member is journaled in one file only (its
 * worker's), so the files' counts add up.
 */
export async function scanJournal(summary: JobJournalSummary, ids: ReadonlySet<string>): Promise<{ found: Map<string, RestoreEntry>; entries: number }> {
	const found = new Map<string, RestoreEntry>();
	let entries = 0;
	for (const file of summary.files) {
		for await (const record of readEntryRecords(file.path)) {
			// A `left` line is written only for a member the file holds: it takes one entry away.
			if (record.type === 'left') {
				entries--;
				found.delete(record.id);
				continue;
			}
			entries++;
			if (ids.has(record.id) && !found.has(record.id)) found.set(record.id, { id: record.id, from: record.from, to: record.to });
		}
	}
	return { found, entries };
}
