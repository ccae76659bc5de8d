import {
	exactly,
	type GuildContext,
	type GuildCounts,
	holdersOf,
	type JobEstimate,
	type MemberFilters,
	membersInScope,
	onlyRole,
	others,
	type Range,
} from '../../jobs/index.js';
import type { RoleMode } from './RoleAction.js';

/**
 * `/massrole add|remove`: the role's count says who has it. Add changes those in scope who lack it
 * (holders are done); remove changes those in scope who hold it. Nobody is out of reach: the role
 * itself was checked against the workers before the preview.
 */
export function estimateRoleChange(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters, roleId: string, mode: RoleMode): JobEstimate {
	const inScope = membersInScope(counts, ctx, filters);
	const holders = holdersOf(roleId, counts, ctx);
	let held: Range;
	if (filters.excludeRoleId === roleId) held = exactly(0);
	else if (onlyRole(filters, ctx) === roleId) held = inScope;
	else held = { atLeast: Math.max(0, holders + inScope.atLeast - others(counts)), atMost: Math.min(holders, inScope.atMost) };
	const lacking: Range = { atLeast: Math.max(0, inScope.atLeast - held.atMost), atMost: Math.max(0, inScope.atMost - held.atLeast) };
	return mode === 'add' ? { inScope, change: lacking, done: held, cant: exactly(0) } : { inScope, change: held, done: lacking, cant: exactly(0) };
}
