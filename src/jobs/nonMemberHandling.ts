import type { JobMode } from './job/JobOptions.js';
import type { MassAction } from './MassAction.js';
import type { MemberFilters } from './planner.js';

/** What a job limited to a file of ids does with the ids no member had. */
export interface NonMemberHandling {
	/** Whether its action is handed them (see `MassAction.nonMembers`). */
	readonly reached: boolean;
	/**
	 * The job's filters that keep them from an action that would reach them, for people (`the
	 * name pattern`): each asks what only a member has, which nobody can tell of a user who is not one.
	 */
	readonly memberOnly: readonly string[];
}

/**
 * Whether a job hands its action the listed ids no member had: only an action that reaches users
 * who are not members (a ban), in the job itself (not its undo, which plans from the ban list),
 * and only when no other filter asks what only a member has (a role, a join date, a name, the kind
 * of account: Discord tells none of them by id alone). The filters a user who is not a member
 * passes are kept: the id list, the account's age (read from the id), no role, a role left out.
 */
export function nonMemberHandling(action: MassAction, mode: JobMode, filters: MemberFilters, guildId: string): NonMemberHandling {
	if (mode !== 'apply' || action.nonMembers === undefined || filters.userIds === undefined) return { reached: false, memberOnly: [] };
	const memberOnly: string[] = [];
	if (filters.onlyRoleId !== undefined && filters.onlyRoleId !== guildId) memberOnly.push('the role');
	if (filters.members !== undefined && filters.members !== 'all') memberOnly.push(filters.members === 'bots' ? 'bots only' : 'humans only');
	if (filters.joinedAfter !== undefined || filters.joinedBefore !== undefined) memberOnly.push('the join date');
	if (filters.nameMatches !== undefined) memberOnly.push('the name pattern');
	return { reached: memberOnly.length === 0, memberOnly };
}
