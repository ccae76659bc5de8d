import { ErrorCodes, JobError } from '../../errors.js';
import type { GuildContext } from '../../jobs/index.js';
import type { GuildRole } from '../ActionModule.js';

/**
 * Refuses a role job, or its undo, that gives or takes a role at or above the requester's highest
 * role: by hand, Discord lets a member hand out only roles below their own highest (the owner
 * any), Administrator or not, and the bots do no more for them. Says who can run it instead.
 *
 * A role deleted since its job ran is held by nobody, so its undo changes nothing: not refused.
 *
 * @throws {JobError} `ABOVE_REQUESTER`
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function checkRoleWithinRank(role: Pick<GuildRole, 'id' | 'name'>, ctx: GuildContext, undo: boolean): void {
	const rank = ctx.requester;
	if (rank?.kind !== 'member') return;
	const position = ctx.rolePositions.get(role.id);
	if (position === undefined || position < rank.position) return;
	const yours = rank.position === 0 ? 'you hold no role' : `your highest role is @${rank.roleName}`;
	const what = undo ? `Undoing that job gives or takes @${role.name}` : `@${role.name}`;
	const instead = undo
		? 'The server owner, a member whose highest role is above it, or the operator at the machine (`massnick run restore`) can undo it.'
		: 'The server owner or a member whose highest role is above it can run this job, or the operator at the machine with `massnick run massrole`.';
	throw new JobError(
		ErrorCodes.AboveRequester,
		`${what}, which is at or above your own rank (${yours}): Discord lets you give or take only roles below your highest role, and massnick does no more for you. Nothing was changed. ${instead}`,
		{
			context: {
				roleId: role.id,
				roleName: role.name,
				rolePosition: position,
				requesterId: rank.userId,
				requesterRoleName: rank.roleName,
				requesterPosition: rank.position,
				undo,
			},
		},
	);
}
