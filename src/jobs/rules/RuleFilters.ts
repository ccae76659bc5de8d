import { TIME_FILTERS, type TimeFilter } from '../filters/MemberFilterSpec.js';
import { parseDateOrDuration } from '../filters/parseDateOrDuration.js';
import type { Plan } from '../Plan.js';
import type { MemberFilters } from '../planner.js';

/**
 * How often a rule reads its durations anew. A minute: `created_after:1d` is then at most a minute
 * off, and the filters are compiled once a minute, not once a member (a rule's sweep plans every
 * member of the guild).
 */
export const RULE_FILTERS_EVERY_MS = 60_000;

/** The windows a time filter is one end of: `[after, before)`. */
const WINDOWS: readonly (readonly [TimeFilter, TimeFilter])[] = [
	['joinedAfter', 'joinedBefore'],
	['createdAfter', 'createdBefore'],
];

/**
 * `filters` with a rule's durations (`MemberFilterSpec.ago`) read against `now`: `createdAfter`
 * a day before `now` for `created_after:1d`. `undefined` when a window has closed: a duration's
 * start has moved past a date's end (`created_after:1d` with `created_before:2027-01-01`, in 2027),
 * so nobody is in it any more.
 */
export function resolveAgo(filters: MemberFilters, now: number): MemberFilters | undefined {
	const { ago } = filters;
	if (!ago) return filters;
	const resolved: Record<string, unknown> = { ...filters };
	for (const field of TIME_FILTERS) {
		const text = ago[field];
		if (text !== undefined) resolved[field] = parseDateOrDuration(text, now);
	}
	for (const [after, before] of WINDOWS) {
		const start = resolved[after] as number | undefined;
		const end = resolved[before] as number | undefined;
		if (start !== undefined && end !== undefined && start >= end) return undefined;
	}
	return resolved as MemberFilters;
}

/**
 * A standing rule's filters as of now: its durations read anew at most every
 * {@link RULE_FILTERS_EVERY_MS}, each reading a new object, so the planner compiles it once (see
 * `planMember`). A job that is not a rule, or a rule given only dates, plans with its filters as
 * they are.
 */
export class RuleFilters {
	readonly #filters: MemberFilters;
	readonly #now: () => number;
	#current: MemberFilters | undefined;
	#readAt: number;

	constructor(filters: MemberFilters, now: () => number = Date.now) {
		this.#filters = filters;
		this.#now = now;
		this.#readAt = now();
		this.#current = resolveAgo(filters, this.#readAt);
	}

	/** The filters as of now; `undefined` once a window has closed (see {@link resolveAgo}). */
	get current(): MemberFilters | undefined {
		if (this.#filters.ago === undefined) return this.#current;
		const now = this.#now();
		if (now - this.#readAt >= RULE_FILTERS_EVERY_MS || now < this.#readAt) {
			this.#readAt = now;
			this.#current = resolveAgo(this.#filters, now);
		}
		return this.#current;
	}

	/** `plan` with the filters as of now; a skip for everyone once a window has closed. */
	plan(plan: (filters: MemberFilters) => Plan): Plan {
		const filters = this.current;
		return filters ? plan(filters) : { action: 'skip', reason: 'window-closed' };
	}
}
