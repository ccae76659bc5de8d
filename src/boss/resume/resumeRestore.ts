import { permissionNames } from '../../discord/permissionNames.js';
import { MassnickError } from '../../errors.js';
import { actionToUndo, type Job, type JobJournalSummary, type MassAction, type RestoreRecord } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { RESTORE_PERMISSION } from '../commands/restorePermission.js';
import { wordError } from '../wordError.js';
import { notResumed } from './notResumed.js';
import { recheckRequester } from './recheckRequester.js';
import { showResumed } from './showResumed.js';
import { whoCanContinue } from './whoCanContinue.js';

/** A /restore a restart cut short: the journal it undoes, and who ran it (see `JobManager.interruptedRestore`). */
export interface InterruptedRestore {
	readonly summary: JobJournalSummary;
	readonly restore: RestoreRecord;
}

/**
 * Resumes the /restore a restart cut short, as a job is resumed (see `resumeInterrupted`): for the
 * member who ran it, read from the guild now and checked with the rules of a new /restore (still a
 * member, still with Manage Nicknames, not ranked lower than when they ran it), at most
 * 3 times in 10 minutes (see `recheckRequester`); the journal and the done marker make it
 * put back only the members not back yet. An undo left half done is the surprise a restart must
 * not leave: members would keep what the job set with nobody running anything.
 *
 * A restore that ended (finished, or cancelled with /cancel) is not resumed, nor one of a job that
 * `massnick run` started (it keeps no run record: a scheduler reruns it).
 *
 * @returns the resumed restore, or `undefined` when it was not resumed (its channel and the log say why).
 */
export async function resumeRestore(context: BossContext, { summary, restore }: InterruptedRestore, now: () => number = Date.now): Promise<Job | undefined> {
	const { header } = summary;
	const log = context.logger.child({ job: header.jobId });
	let action: MassAction;
	try {
		action = actionToUndo(header, (journaled) => context.jobs.actionOf(journaled));
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		log.warn({ err: error }, 'the interrupted restore undoes a journal this massnick cannot read, so it is not resumed');
		return undefined;
	}
	const title = action.words.undoing;
	const { restoreChannelId: channelId } = await context.notes.read(header.jobId);
	const permissionName = permissionNames(RESTORE_PERMISSION).join(', ');
	const refuse = (reason: string, next = `Run /restore again to finish it; ${whoCanContinue(restore.rank, permissionName)}.`): Promise<undefined> =>
		notResumed(context, { jobId: header.jobId, title, startedBy: restore.startedBy.tag, channelId, reason, next, log, at: new Date(now()) });

	const requester = await recheckRequester(context, { asked: restore, permission: RESTORE_PERMISSION, did: 'ran', action, undo: true });
	if ('refused' in requester)
		return refuse(requester.refused, requester.tooOften ? 'Fix the cause in the log, then run /restore again to finish it.' : undefined);

	const resumedAt = new Date(now());
	const startedBy = { id: restore.startedBy.id, tag: requester.tag };
	let job: Job;
	try {
		// Their rank read now bounds it; the record keeps the rank they ran it with.
		({ job } = await context.jobs.startRestore({
			dryRun: false,
			startedBy,
			rank: requester.rank,
			// Admitted as a new job would be: the action's permission, read from the member now.
			allowed: requester.allowed,
			record: { ...restore, startedBy, resumes: [...restore.resumes, resumedAt.toISOString()] },
		}));
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		return refuse(`it could not start: ${wordError(error)}`);
	}
	if (job.id !== header.jobId) {
		// Only a journal written between the check and the start could do this; it is undone as /restore would.
		log.warn({ expected: header.jobId, restoring: job.id }, 'the resumed restore undoes another journal than the one interrupted');
	}
	log.info({ title, ranBy: requester.tag, resumedAt: resumedAt.toISOString(), resumes: restore.resumes.length + 1 }, 'restore resumed after a restart');
	await showResumed(context, job, { channelId }, resumedAt, log);
	return job;
}
