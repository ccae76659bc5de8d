import type { RequesterRank } from '../RequesterRank.js';
import { isDemoted } from './isDemoted.js';
import type { Refusal } from './ResumeDecision.js';
import type { RequesterNow } from './ResumeInput.js';

/** Who asked for a job or made a rule, as its run record keeps them: the rank they started it with. */
export interface AskedBy {
	readonly startedBy: { readonly tag: string };
	readonly rank: RequesterRank;
}

/**
 * Why the requester, as the guild has them now, may no longer have their job or rule go on, with
 * the rules a new command has; `undefined` when they may. One decision for a restart (see
 * `decideResume`) and for a standing rule re-checked while it runs, so both end alike: they left,
 * could not be read, lost the command's permission (nor does an allow-list stand in), rank lower
 * than when they started it (see {@link isDemoted}), or no longer reach what it changes.
 *
 * @param rolePositions each role's position now, by id (a role deleted since is absent).
 */
export function requesterRefusal(asked: AskedBy, now: RequesterNow, rolePositions: ReadonlyMap<string, number>): Refusal | undefined {
	if (now.kind === 'left') return { code: 'requester-left', tag: asked.startedBy.tag };
	if (now.kind === 'unreadable') return { code: 'requester-unreadable', tag: asked.startedBy.tag, error: now.error };
	if (!now.allowed) return { code: 'permission-lost', tag: now.tag };
	if (isDemoted(asked.rank, now.rank, (roleId) => rolePositions.get(roleId))) {
		if (asked.rank.kind !== 'member') return { code: 'no-longer-owner', tag: now.tag };
		return { code: 'demoted', tag: now.tag, was: asked.rank, is: now.rank };
	}
	if (now.outOfReach !== undefined) return { code: 'out-of-reach', tag: now.tag, message: now.outOfReach };
	return undefined;
}
