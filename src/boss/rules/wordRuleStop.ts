import type { Refusal, RequesterNow, RequesterRank } from '../../jobs/index.js';
import { whoCanContinue } from '../resume/whoCanContinue.js';
import { wordRefusal } from '../resume/wordRefusal.js';

/**
 * Why a standing rule stopped while it ran, as a clause for its channel and /status: a restart's
 * words for the same refusal (`alice, who started it, no longer has the Manage Roles permission`),
 * but for what it changes moved out of their reach, which is said of the rule, not to them.
 *
 * @param permission the command's permission, by name (`Manage Roles`).
 * @param now the requester as the re-check read them.
 */
export function wordRuleStop(why: Refusal, permission: string, now: RequesterNow): string {
	if (why.code !== 'out-of-reach') return wordRefusal({ why, what: 'job' }, permission);
	const rank = now.kind === 'member' ? now.rank : undefined;
	const holds = rank?.kind === 'member' && rank.roleId !== undefined ? `their highest role is @${rank.roleName}` : 'they hold no role';
	return `${why.tag}, who started it, no longer ranks above what it changes (${holds}), and Discord lets a member change only what ranks below their own highest role`;
}

/** What to do about a rule that stopped, as a sentence: make it again, and who can. */
export function wordRuleNext(rank: RequesterRank, permission: string): string {
	return `Make the rule again to go on with it, or /restore to undo what it did; ${whoCanContinue(rank, permission)}.`;
}
