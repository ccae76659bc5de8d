import type { RequesterRank } from '../RequesterRank.js';

/**
 * Whether a requester ranks lower now than when they started a job: the owner who gave the server
 * away, or a member whose highest role is now below the one they had. The old role is taken at
 * its position now when it still exists (positions shift as roles below it come and go), else at
 * the position it had.
 *
 * @param positionOf a role's position in the guild now, `undefined` for a role that is gone.
 */
export function isDemoted(then: RequesterRank, now: RequesterRank, positionOf: (roleId: string) => number | undefined): boolean {
	if (now.kind !== 'member') return false;
	if (then.kind !== 'member') return true;
	const bar = (then.roleId === undefined ? undefined : positionOf(then.roleId)) ?? then.position;
	return now.position < bar;
}
