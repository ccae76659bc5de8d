import { exactly, type JobEstimate, type Requester, type RequesterRank } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import type { PendingJob } from './PendingJob.js';

/** A job's figures counted member by member, and the number its Start asks to be typed. */
export interface ExactCount {
	readonly estimate: JobEstimate;
	/** The members it will change, to be typed before it runs; `undefined` when the module asks for none at that count. */
	readonly typedCount: number | undefined;
}

/**
 * For a job that asks for its count typed (`PendingJob.confirmByTypedCount`, a kick), the exact
 * figures its preview shows: a dry run over the whole guild, planned as the job will plan it
 * (its filters, the requester's rank), so the number typed is the number of members it changes,
 * not a range. `undefined` for any other job, and when the estimate's range already says no.
 * A large guild takes a while to list (List Guild Members, 1,000 a page): the preview waits.
 *
 * @throws the count's error when the guild could not be listed: a count nobody can confirm
 * starts nothing.
 */
export async function countExactly(
	context: BossContext,
	pending: PendingJob,
	requester: Requester,
	rank: RequesterRank,
	estimate: JobEstimate,
): Promise<ExactCount | undefined> {
	const ask = pending.confirmByTypedCount;
	if (!ask || (estimate.change !== undefined && !ask(estimate.change))) return undefined;
	const job = context.jobs.count(pending.action, requester, pending.filters ?? {}, rank);
	await job.ended();
	if (job.result?.error) throw job.result.error;
	const { changed, alreadyDone, cant, aboveRequester } = job.progress.snapshot();
	return {
		estimate: {
			inScope: exactly(changed + alreadyDone + cant + aboveRequester),
			change: exactly(changed),
			done: exactly(alreadyDone),
			cant: exactly(cant),
			aboveRequester: exactly(aboveRequester),
		},
		typedCount: ask(exactly(changed)) ? changed : undefined,
	};
}
