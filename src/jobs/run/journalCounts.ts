import type { ProgressSnapshot, WorkerCounts } from '../Progress.js';

/** The counters a journal's status line keeps. */
export function journalCounts(snapshot: ProgressSnapshot): Record<string, number | Record<string, number>> {
	const { total, changed, alreadyDone, cant, aboveRequester, skipped, left, failedByReason } = snapshot;
	return { total, changed, alreadyDone, cant, aboveRequester, skipped, left, failed: failedByReason };
}

/** The same counters for one worker's file. */
export function workerJournalCounts(worker: WorkerCounts): Record<string, number | Record<string, number>> {
	const { inSlice, changed, alreadyDone, cant, aboveRequester, skipped, left, failed } = worker;
	return { total: inSlice, changed, alreadyDone, cant, aboveRequester, skipped, left, failed: { ...failed } };
}
