import { describeListedIds } from './filters/describeFilters.js';
import type { Job } from './Job.js';

/**
 * What a job limited to a file of user ids found of them, for its status and the command line's
 * report (see `describeListedIds`); `undefined` for any other job.
 */
export function listedIdsLine(job: Job): string | undefined {
	const tally = job.listedIds;
	if (!tally) return undefined;
	const seen = { changed: job.action.words.changed, dryRun: job.dryRun, memberOnly: job.nonMemberHandling.memberOnly, counts: job.nonMembers };
	return describeListedIds(tally.total, job.filters.userIdsFrom, tally.notMembers, seen);
}
