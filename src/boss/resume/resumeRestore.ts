import { permissionNames } from '../../discord/permissionNames.js';
import { MassnickError } from '../../errors.js';
import { forRequester } from '../../jobs/GuildContext.js';
import type { Job } from '../../jobs/Job.js';
import type { JobJournalSummary } from '../../jobs/JobJournal.js';
import type { MassAction } from '../../jobs/MassAction.js';
import type { RestoreRecord } from '../../jobs/journal/runRecord.js';
import { RESUME_LIMIT, RESUME_WINDOW_MS, resumedTooOften } from '../../jobs/resumedTooOften.js';
import { actionToUndo } from '../../jobs/restoreQueries.js';
import type { BossContext } from '../BossContext.js';
import { RESTORE_PERMISSION } from '../commands/restorePermission.js';
import { wordError } from '../wordError.js';
import { notResumed } from './notResumed.js';
import { readRequesterNow } from './readRequesterNow.js';
import { showResumed } from './showResumed.js';
import { whoCanContinue } from './whoCanContinue.js';
import { type RequesterNow, whyNotResumed } from './whyNotResumed.js';

/** A /restore a restart cut short: the journal it undoes, and who ran it (see `JobManager.interruptedRestore`). */
export interface InterruptedRestore {
	readonly summary: JobJournalSummary;
	readonly restore: RestoreRecord;
}

/**
 * Resumes the /restore a restart cut short, as a job is resumed (see `resumeInterrupted`): for the
 * member who ran it, read from the guild now and checked with the rules of a new /restore (still a
 * member, still with Manage Nicknames, not ranked lower than when they ran it), at most
 * {@link RESUME_LIMIT} times in {@link RESUME_WINDOW_MS}; the journal and the done marker make it
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
	const permissionName = permissionNames(RESTORE_PERMISSION).join(', ');
	const refuse = (reason: string, next = `Run /restore again to finish it; ${whoCanContinue(restore.rank, permissionName)}.`): Promise<undefined> =>
		notResumed(context, { jobId: header.jobId, title, startedBy: restore.startedBy.tag, channelId: restore.channelId, reason, next, log, at: new Date(now()) });

	if (resumedTooOften(restore.resumes)) {
		return refuse(
			`it was resumed ${RESUME_LIMIT} times in ${RESUME_WINDOW_MS / 60_000} minutes and each time it stopped short of its end (the process died, or the job failed), so it is not resumed again`,
			'Fix the cause in the log, then run /restore again to finish it.',
		);
	}
	let requester: RequesterNow;
	try {
		requester = await readRequesterNow(context, restore.startedBy.id, RESTORE_PERMISSION);
	} catch (error) {
		return refuse(`${restore.startedBy.tag}, who ran it, could not be read from the server (${(error as Error).message})`);
	}
	const reason = whyNotResumed({
		record: restore,
		did: 'ran',
		now: requester,
		permission: permissionName,
		positionOf: (roleId) => context.boss.guild.roles.cache.get(roleId)?.position,
		checkRequester: (rank) => action.checkRequester?.(forRequester(context.boss.guildContext(), rank), true),
	});
	if (reason !== undefined || requester.left) return refuse(reason ?? `${restore.startedBy.tag}, who ran it, left the server`);

	const resumedAt = new Date(now());
	const startedBy = { id: restore.startedBy.id, tag: requester.tag };
	let job: Job;
	try {
		// Their rank read now bounds it; the record keeps the rank they ran it with.
		({ job } = await context.jobs.startRestore({
			dryRun: false,
			startedBy,
			rank: requester.rank,
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
	await showResumed(context, job, { channelId: restore.channelId }, resumedAt, log);
	return job;
}
