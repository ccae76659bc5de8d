import type { RequesterRank } from '../../jobs/index.js';

/**
 * Who can take over a job that was not resumed for its requester: anyone who may run its command
 * and reaches as far as they did.
 *
 * @param permission the command's permission, by name (`Manage Nicknames`).
 */
export function whoCanContinue(rank: RequesterRank, permission: string): string {
	if (rank.kind === 'member') return `the server owner or a member with ${permission} ranked at least as high as @${rank.roleName} can`;
	// Nobody but the owner reaches as far as the owner (or the operator) did.
	return `the server owner can (a member with ${permission} reaches only the members ranked below them)`;
}
