import type { MemberFilterSpec } from './MemberFilterSpec.js';

/** The fields of {@link MemberFilterSpec}, in the order a journal header keeps them. */
export const FINER_FILTER_KEYS = [
	'members',
	'noRoles',
	'joinedBefore',
	'joinedAfter',
	'createdBefore',
	'createdAfter',
	'nameMatches',
	'ago',
	// Last: a header line stays readable up to its list of ids.
	'userIdsFrom',
	'userIds',
] as const satisfies ReadonlyArray<keyof MemberFilterSpec>;

/** Whether any filter beyond the role filters is set (`members: all` and `noRoles: false` filter nothing). */
export function hasFinerFilters(spec: MemberFilterSpec): boolean {
	return (
		(spec.members !== undefined && spec.members !== 'all') ||
		spec.noRoles === true ||
		spec.joinedBefore !== undefined ||
		spec.joinedAfter !== undefined ||
		spec.createdBefore !== undefined ||
		spec.createdAfter !== undefined ||
		spec.nameMatches !== undefined ||
		spec.userIds !== undefined
	);
}

/** Only the finer filters of `filters`, set ones only: what a journal header keeps; `undefined` for none. */
export function finerFiltersOf(filters: MemberFilterSpec): MemberFilterSpec | undefined {
	if (!hasFinerFilters(filters)) return undefined;
	const spec: Record<string, unknown> = {};
	for (const key of FINER_FILTER_KEYS) if (filters[key] !== undefined) spec[key] = filters[key];
	return spec as MemberFilterSpec;
}
