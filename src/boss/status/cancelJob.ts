import type { Job } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';

/**
 * Cancels the running job: what `/cancel` and the live status's Cancel (once confirmed) both do.
 * With `only`, cancels it only if it is still the running job, or a standing rule still running
 * (past its sweep it is no longer the running job), so a confirmation pressed late never stops a
 * newer job. Returns the job cancelled, or `undefined` when none was.
 */
export function cancelJob(context: BossContext, only?: Job): Job | undefined {
	if (only && only !== context.jobs.current && context.jobs.rules.all.includes(only)) {
		// Its own status message shows its end as soon as it has ended.
		only.cancel();
		return only;
	}
	const running = context.jobs.current;
	if (!running || running.result || (only !== undefined && running !== only)) return undefined;
	const job = context.jobs.cancel();
	// The status shows "cancelling" now rather than at its next tick.
	if (job) void context.boss.liveStatus?.refresh();
	return job;
}

/**
 * What a member must hold to stop a job, or press its buttons: what running it asked (its action's
 * permission: Manage Nicknames, Manage Roles for a /massrole job, Ban Members and Manage Guild for
 * a ban), for a /restore too (undoing a ban asks what banning did). So a renamer cannot stop a
 * raid's bans, nor a moderator who may only ban stop a rename.
 */
export function jobPermission(job: Pick<Job, 'action'>): bigint {
	return job.action.permission;
}

/** What the member who cancelled is told. */
export function cancellingText(job: Job): string {
	return `Cancelling **${job.title}**: no new request goes out. What was done stays journaled; running it again continues, ${undoWords(job)}.`;
}

/** Whether /restore undoes what the job did: a kick it cannot (`MassAction.irreversible`). */
export function undoWords(job: Job): string {
	return job.mode === 'apply' && job.action.irreversible ? 'and what it did cannot be undone' : '/restore undoes it';
}
