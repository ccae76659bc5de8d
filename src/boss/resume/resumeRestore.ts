import { MassnickError } from '../../errors.js';
import type { Job, ResumeIt } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import type { ResumeStart } from './resumeJob.js';
import { showResumed } from './showResumed.js';

/**
 * Starts the /restore a restart cut short, as a job is resumed (see `resumeJob`), for the member
 * who ran it: the journal and the done marker make it put back only the members not back yet. An
 * undo left half done is the surprise a restart must not leave: members would keep what the job
 * set with nobody running anything.
 *
 * @returns the restore, or why it could not start (the caller says so, as a refusal).
 */
export async function resumeRestore(
	context: BossContext,
	{ decision, action, may, log }: ResumeStart<Extract<ResumeIt, { what: 'restore' }>>,
): Promise<Job | MassnickError> {
	const { journal, startedBy, rank, resumed } = decision;
	const { header } = journal;
	let job: Job;
	try {
		// Their rank read now bounds it; the record keeps the rank they ran it with.
		({ job } = await context.jobs.startRestore({ dryRun: false, startedBy, rank, allowed: may, record: resumed }));
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		return error;
	}
	if (job.id !== header.jobId) {
		// Only a journal written between the check and the start could do this; it is undone as /restore would.
		log.warn({ expected: header.jobId, restoring: job.id }, 'the resumed restore undoes another journal than the one interrupted');
	}
	log.info(
		{ title: action.words.undoing, ranBy: startedBy.tag, resumedAt: decision.resumedAt, resumes: resumed.resumes.length },
		'restore resumed after a restart',
	);
	const { restoreChannelId } = await context.notes.read(header.jobId);
	await showResumed(context, job, { channelId: restoreChannelId }, new Date(decision.resumedAt), log);
	return job;
}
