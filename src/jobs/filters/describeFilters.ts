import type { MemberFilters } from '../planner.js';

/**
 * Who a job is about, for people: `every member`, `members with @Staff except those with @Bots`.
 * `roleName` gives a role's name with its `@` (`@everyone` for the guild's id).
 */
export function describeFilters(filters: MemberFilters, roleName: (id: string) => string): string {
	const parts = [filters.onlyRoleId !== undefined ? `members with ${roleName(filters.onlyRoleId)}` : 'every member'];
	if (filters.excludeRoleId !== undefined) parts.push(`except those with ${roleName(filters.excludeRoleId)}`);
	return parts.join(' ');
}
