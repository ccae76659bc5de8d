import { moduleOfType } from '../../actions/index.js';
import { permissionNames } from '../../discord/permissionNames.js';
import { MassnickError } from '../../errors.js';
import { type Job, type JobJournalSummary, type MassAction, OPERATOR_ID } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { commandPermission } from '../commandPermission.js';
import { countTargetOf } from '../fleet/fleetStatus.js';
import { wordError } from '../wordError.js';
import { notResumed } from './notResumed.js';
import { recheckRequester } from './recheckRequester.js';
import { showResumed } from './showResumed.js';
import { whoCanContinue } from './whoCanContinue.js';

/**
 * Resumes the job a restart interrupted (`summary`: its journal is `running` or `stopped`), as its
 * command would rerun it: the same action, target and filters, for the same member, with no
 * preview (they confirmed it when it started); the journal and the done marker make it do only
 * what is left. Before, the member is read from the guild as it is now and checked with the rules
 * of a new command, and the job's last resumes against a crash loop
 * (see `recheckRequester`); a job that may not go on is left as it is, and its channel and the
 * log say why and who can continue it. A resumed job posts its live status again in its channel,
 * taking over its old status message when that is still there.
 *
 * Only a job started by a slash command has the run record this needs; one `massnick run` started
 * is a scheduler's to rerun.
 *
 * @returns the resumed job, or `undefined` when it was not resumed.
 */
export async function resumeInterrupted(context: BossContext, summary: JobJournalSummary, now: () => number = Date.now): Promise<Job | undefined> {
	const { header } = summary;
	const log = context.logger.child({ job: header.jobId });
	const fields = { title: header.title, startedBy: header.startedBy.tag, startedAt: header.startedAt, state: summary.state };
	const record = await context.jobs.records.read(header.jobId);
	if (!record) {
		if (header.startedBy.id === OPERATOR_ID) {
			log.info(
				fields,
				'the interrupted job was started by massnick run, which a scheduler reruns: massnick start does not resume it (run the same massnick run again to finish it)',
			);
		} else {
			log.warn(
				fields,
				'the interrupted job has no record of who asked for it (an older massnick started it), so it is not resumed: run the same command again to finish it',
			);
		}
		return undefined;
	}
	if (record.restoreStartedAt !== undefined) {
		log.info(
			{ ...fields, restoreStartedAt: record.restoreStartedAt },
			'a /restore of the interrupted job started since, so it is not resumed: /restore finishes undoing it',
		);
		return undefined;
	}
	// A job that ended after this one last started ran in its place: going back to this one by
	// itself, perhaps days later, would surprise everyone.
	const lastStart = record.resumes.at(-1) ?? record.startedAt;
	const newer = (await context.jobs.journals.list()).find(
		(other) => other.header.jobId !== header.jobId && other.endedAt !== undefined && other.endedAt > lastStart,
	);
	if (newer) {
		log.info(
			{ ...fields, newer: newer.header.jobId, newerTitle: newer.header.title },
			'another job ran after the interrupted one, so it is not resumed: run its command again to finish it, or /cancel to close it',
		);
		return undefined;
	}
	const module = moduleOfType(header.action);
	const journaled = context.jobs.actionOf(header);
	if (!module || !journaled) {
		log.warn({ ...fields, action: header.action }, 'the interrupted job was journaled by an action this massnick does not know, so it is not resumed');
		return undefined;
	}
	const note = await context.notes.read(header.jobId);
	const permission = commandPermission(module.command.name);
	const permissionName = permissionNames(permission).join(', ');
	const continueNext = `Run the same command again to continue, or /restore to undo it; ${whoCanContinue(record.rank, permissionName)}.`;
	const refuse = (reason: string, next = continueNext): Promise<undefined> =>
		notResumed(context, {
			jobId: header.jobId,
			title: header.title,
			startedBy: record.startedBy.tag,
			channelId: note.channelId,
			reason,
			next,
			log,
			at: new Date(now()),
		});

	// Checked as a new job's would be, against the guild now: a role deleted or raised since.
	let action: MassAction;
	try {
		action = module.resume?.(header, context.actionDeps) ?? journaled;
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		return refuse(`${error.message.charAt(0).toLowerCase()}${error.message.slice(1)}`);
	}
	const requester = await recheckRequester(context, { asked: record, permission, did: 'started', action, undo: false });
	if ('refused' in requester)
		return refuse(requester.refused, requester.tooOften ? 'Fix the cause in the log, then run the same command to continue, or /cancel.' : undefined);

	const resumedAt = new Date(now());
	const startedBy = { id: record.startedBy.id, tag: requester.tag };
	let job: Job;
	try {
		// Their rank read now bounds it; the record keeps the rank they started it with.
		job = await context.jobs.startJob(action, {
			dryRun: false,
			startedBy,
			rank: requester.rank,
			// Admitted as a new job would be: the action's permission, read from the member now.
			allowed: requester.allowed,
			filters: countTargetOf(header, context).filters,
			record: { ...record, startedBy, resumes: [...record.resumes, resumedAt.toISOString()] },
		});
	} catch (error) {
		if (!(error instanceof MassnickError)) throw error;
		return refuse(`it could not start: ${wordError(error)}`);
	}
	await context.notes.update(header.jobId, { notResumed: undefined });
	const changedBefore = context.jobs.runOf(job)?.journaledAtStart ?? 0;
	log.info(
		{
			...fields,
			resumedAt: resumedAt.toISOString(),
			resumes: record.resumes.length + 1,
			changedBefore,
			leftAtMost: Math.max(0, context.boss.guild.memberCount - changedBefore),
		},
		'job resumed after a restart',
	);
	await showResumed(context, job, note, resumedAt, log);
	return job;
}
