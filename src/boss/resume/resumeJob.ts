import type { Logger } from 'pino';
import { MassnickError } from '../../errors.js';
import { type Job, type KeepOptions, keepOf, type MassAction, type ResumeIt } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { countTargetOf } from '../fleet/fleetStatus.js';
import { wordError } from '../wordError.js';
import { showResumed } from './showResumed.js';

/** What a resume starts from: the decision, and the action and requester's permissions read for it. */
export interface ResumeStart<D extends ResumeIt = ResumeIt> {
	readonly decision: D;
	readonly action: MassAction;
	readonly may: ((permission: bigint) => boolean) | undefined;
	readonly log: Logger;
}

/**
 * Starts the job a restart interrupted, as its command would rerun it: the same action, target
 * and filters, for the same member, with no preview (they confirmed it when it started); the
 * journal and the done marker make it do only what is left. Its live status goes up again in its
 * channel, taking over its old status message when that is still there.
 *
 * @returns the job, or why it could not start (the caller says so, as a refusal).
 */
export async function resumeJob(
	context: BossContext,
	{ decision, action, may, log }: ResumeStart<Extract<ResumeIt, { what: 'job' }>>,
): Promise<Job | MassnickError> {
	const { journal, startedBy, rank, resumed } = decision;
	const { header } = journal;
	let job: Job;
	try {
		// Their rank read now bounds it; the record keeps the rank they started it with. Admitted
		// as a new job would be: the action's permission, read from the member now.
		job = await context.jobs.startJob(action, {
			dryRun: false,
			startedBy,
			rank,
			allowed: may,
			filters: countTargetOf(header, context).filters,
			record: resumed,
			// A standing rule goes on as one: its sweep catches up, at low priority, with whoever joined
			// or changed while it was down.
			keep: catchingUp(keepOf(resumed)),
		});
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		return error;
	}
	await context.notes.update(header.jobId, { notResumed: undefined });
	const changedBefore = context.jobs.runOf(job)?.journaledAtStart ?? 0;
	log.info(
		{
			title: header.title,
			startedBy: header.startedBy.tag,
			startedAt: header.startedAt,
			state: journal.state,
			resumedAt: decision.resumedAt,
			resumes: resumed.resumes.length,
			changedBefore,
			leftAtMost: Math.max(0, context.boss.guild.memberCount - changedBefore),
		},
		'job resumed after a restart',
	);
	await showResumed(context, job, await context.notes.read(header.jobId), new Date(decision.resumedAt), log);
	return job;
}

/** Why a resume could not start, as a clause for its channel. */
export function couldNotStart(error: MassnickError): string {
	return `it could not start: ${wordError(error)}`;
}

/** A resumed rule's keep: its sweep is a catch-up (see `KeepOptions.catchUp`). */
function catchingUp(keep: KeepOptions | undefined): KeepOptions | undefined {
	return keep && { ...keep, catchUp: true };
}
