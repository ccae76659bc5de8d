import { forRequester, type MassAction, type RequesterRank, RESUME_LIMIT, RESUME_WINDOW_MS, resumedTooOften, type RunRecord } from '../../jobs/index.js';
import { permissionNames } from '../../discord/permissionNames.js';
import type { BossContext } from '../BossContext.js';
import { readRequesterNow } from './readRequesterNow.js';
import { type RequesterNow, whyNotResumed } from './whyNotResumed.js';

export interface Recheck {
	/** Who asked, with their rank then, and when it was resumed since. */
	readonly asked: Pick<RunRecord, 'startedBy' | 'rank' | 'resumes'>;
	/** The command's permission: a resume needs what a new command would. */
	readonly permission: bigint;
	/** What they did, in the reasons: `started` a job, `ran` a restore. */
	readonly did: 'started' | 'ran';
	readonly action: MassAction;
	/** An undo (a restore) is checked as one: it reaches the members it puts back. */
	readonly undo: boolean;
}

/** The member to resume it for, as they are now; or why not, and whether it was resumed too often. */
export type Rechecked =
	| { readonly tag: string; readonly rank: RequesterRank; readonly allowed: ((permission: bigint) => boolean) | undefined }
	| { readonly refused: string; readonly tooOften: boolean };

/**
 * Whether a job (or its restore) that a restart interrupted may go on for who asked for it: not
 * resumed too often (see {@link resumedTooOften}), and the member read from the guild now and
 * checked with the rules of a new command (see {@link whyNotResumed}).
 */
export async function recheckRequester(context: BossContext, { asked, permission, did, action, undo }: Recheck): Promise<Rechecked> {
	if (resumedTooOften(asked.resumes)) {
		return {
			refused: `it was resumed ${RESUME_LIMIT} times in ${RESUME_WINDOW_MS / 60_000} minutes and each time it stopped short of its end (the process died, or the job failed), so it is not resumed again`,
			tooOften: true,
		};
	}
	let now: RequesterNow;
	try {
		now = await readRequesterNow(context, asked.startedBy.id, permission);
	} catch (error) {
		return { refused: `${asked.startedBy.tag}, who ${did} it, could not be read from the server (${(error as Error).message})`, tooOften: false };
	}
	const reason = whyNotResumed({
		record: asked,
		did,
		now,
		permission: permissionNames(permission).join(', '),
		positionOf: (roleId) => context.boss.guild.roles.cache.get(roleId)?.position,
		checkRequester: (rank) => action.checkRequester?.(forRequester(context.boss.guildContext(), rank), undo),
	});
	if (reason !== undefined || now.left) return { refused: reason ?? `${asked.startedBy.tag}, who ${did} it, left the server`, tooOften: false };
	return { tag: now.tag, rank: now.rank, allowed: now.may };
}
