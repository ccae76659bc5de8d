import { MassnickError } from '../../errors.js';
import type { RequesterRank, RunRecord } from '../../jobs/index.js';
import { isDemoted } from '../../jobs/index.js';

/** The requester as the guild has them now: gone, or their rank and whether they may run the command. */
export type RequesterNow =
	| { readonly left: true }
	| {
			readonly left: false;
			readonly tag: string;
			readonly rank: RequesterRank;
			/** Whether they may run the command (its permission, or a role or user the settings allow). */
			readonly allowed: boolean;
			/** Whether they may do what needs any permission, the same way: for the job's admission. */
			readonly may?: ((permission: bigint) => boolean) | undefined;
	  };

export interface ResumeFacts {
	/** Who asked for the job (or its restore), with their rank then. */
	readonly record: Pick<RunRecord, 'startedBy' | 'rank'>;
	/** What they did, in the reasons: `started` a job (the default), `ran` a restore. */
	readonly did?: string;
	readonly now: RequesterNow;
	/** The command's permission, by name (`Manage Nicknames`). */
	readonly permission: string;
	/** A role's position now; `undefined` for a role that is gone. */
	readonly positionOf: (roleId: string) => number | undefined;
	/** The action's own check of a rank (a role at or above them is refused): throws to refuse. */
	readonly checkRequester: (rank: RequesterRank) => void;
}

/**
 * Why a job may not go on for its requester after a restart, with the rules a new job has: they
 * left the server, lost the command's permission, rank lower than when they started it, or the
 * action refuses them now (a role it hands out is at or above them). `undefined`: it may.
 */
export function whyNotResumed({ record, now, permission, positionOf, checkRequester, did = 'started' }: ResumeFacts): string | undefined {
	const tag = now.left ? record.startedBy.tag : now.tag;
	const who = `${tag}, who ${did} it,`;
	if (now.left) return `${who} is no longer a member of the server`;
	if (!now.allowed) return `${who} no longer has the ${permission} permission (nor a role or user the settings allow)`;
	if (isDemoted(record.rank, now.rank, positionOf)) {
		if (record.rank.kind !== 'member') return `${who} no longer owns the server`;
		const nowHolds = now.rank.kind === 'member' && now.rank.roleId !== undefined ? `now it is @${now.rank.roleName}` : 'now they have none';
		return `${who} was demoted since (their highest role was @${record.rank.roleName}; ${nowHolds})`;
	}
	try {
		checkRequester(now.rank);
	} catch (error) {
		if (error instanceof MassnickError) return `it is out of ${tag}'s reach now: ${error.message}`;
		throw error;
	}
	return undefined;
}
