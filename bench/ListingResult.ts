import { type ListingMeasurement, MEMBERS_PER_PAGE, PAGES_PER_WINDOW } from './measureListing.js';
import { rateLimitWindowMs, round } from './SubjectResult.js';

/**
 * How long the boss alone takes to list the guild, with every worker's members intent off:
 * massnick's `/massnick dry_run:true`, timed from the sandbox's request log. Times at the
 * scenario's time scale, and scaled back to Discord's real windows.
 */
export interface ListingResult {
	status: 'measured' | 'failed' | 'skipped';
	reason: string | null;
	/** Who paged, from massnick's ready line (the boss alone, when measured). */
	listedBy: string[] | null;
	members: number | null;
	pages: number | null;
	/** Pages answered to any bot but the boss: 0 when it lists alone. */
	pagesByOthers: number | null;
	/** From the boss's first page to its last, as answered by the sandbox, at the time scale. */
	firstToLastPageMs: number | null;
	/** From just before `/massnick` to the last page. */
	goToLastPageMs: number | null;
	pagesPerSecond: number | null;
	membersPerSecond: number | null;
	/** The rate limit's pace at the time scale: 10 pages per window. */
	allowedPagesPerSecond: number;
	/** The least time the rate limit allows from first page to last (pages come 10 per window), at the time scale. */
	rateLimitMinimumMs: number | null;
	/** {@link rateLimitMinimumMs} ÷ {@link firstToLastPageMs}: 1 when the rate limit alone paced the listing. */
	shareOfRateLimit: number | null;
	/** Median time between two pages in a row: one page's round trip (request, the sandbox's JSON, the boss's parsing and planning). */
	medianPageIntervalMs: number | null;
	/** Median time 10 pages in a row took (page 1 to 11, 11 to 21, ...): one window's allowance, against {@link rateLimitWindowMs}. */
	medianTenPagesMs: number | null;
	/** One rate-limit window at the time scale (10 s ÷ time scale). */
	rateLimitWindowMs: number;
	/** {@link firstToLastPageMs} × time scale, in seconds: the same listing on Discord's real windows. */
	realTimeSeconds: number | null;
	realTimeMembersPerSecond: number | null;
	/**
	 * {@link rateLimitMinimumMs} on Discord's real windows, in seconds. Scaling the measured time
	 * also scales each page's round trip, which real windows (1 s per page) would mostly hide:
	 * the real listing lies between the two.
	 */
	realTimeRateLimitSeconds: number | null;
	rateLimited429: number | null;
	forbidden403: number | null;
	refusals: Record<string, number> | null;
}

export function measuredListing(timeScale: number, listedBy: readonly string[], measurement: ListingMeasurement): ListingResult {
	const { pages, members } = measurement;
	const firstToLast = measurement.lastPageAt - measurement.firstPageAt;
	const windowMs = rateLimitWindowMs(timeScale);
	// Pages 1–10 go out in the first window, 11–20 in the second, and so on.
	const minimum = Math.floor((pages - 1) / PAGES_PER_WINDOW) * windowMs;
	const seconds = firstToLast / 1000;
	// The time runs from the first page's answer, so the first page's members came before it.
	const membersAfterFirst = members - Math.min(members, MEMBERS_PER_PAGE);
	return {
		status: 'measured',
		reason: null,
		listedBy: [...listedBy],
		members,
		pages,
		pagesByOthers: measurement.pagesByOthers,
		firstToLastPageMs: Math.round(firstToLast),
		goToLastPageMs: Math.round(measurement.goToLastPageMs),
		pagesPerSecond: seconds > 0 ? round((pages - 1) / seconds, 2) : null,
		membersPerSecond: seconds > 0 ? Math.round(membersAfterFirst / seconds) : null,
		allowedPagesPerSecond: (PAGES_PER_WINDOW * 1000) / windowMs,
		rateLimitMinimumMs: Math.round(minimum),
		shareOfRateLimit: firstToLast > 0 ? round(minimum / firstToLast, 4) : null,
		medianPageIntervalMs: round(measurement.medianPageIntervalMs, 1),
		medianTenPagesMs: round(measurement.medianTenPagesMs, 1),
		rateLimitWindowMs: windowMs,
		realTimeSeconds: round((firstToLast * timeScale) / 1000, 1),
		realTimeMembersPerSecond: seconds > 0 ? Math.round(membersAfterFirst / (seconds * timeScale)) : null,
		realTimeRateLimitSeconds: round((minimum * timeScale) / 1000, 1),
		rateLimited429: measurement.rateLimited429,
		forbidden403: measurement.forbidden403,
		refusals: measurement.refusals,
	};
}

export function unmeasuredListing(timeScale: number, status: 'failed' | 'skipped', reason: string): ListingResult {
	return {
		status,
		reason,
		listedBy: null,
		members: null,
		pages: null,
		pagesByOthers: null,
		firstToLastPageMs: null,
		goToLastPageMs: null,
		pagesPerSecond: null,
		membersPerSecond: null,
		allowedPagesPerSecond: (PAGES_PER_WINDOW * 1000) / rateLimitWindowMs(timeScale),
		rateLimitMinimumMs: null,
		shareOfRateLimit: null,
		medianPageIntervalMs: null,
		medianTenPagesMs: null,
		rateLimitWindowMs: rateLimitWindowMs(timeScale),
		realTimeSeconds: null,
		realTimeMembersPerSecond: null,
		realTimeRateLimitSeconds: null,
		rateLimited429: null,
		forbidden403: null,
		refusals: null,
	};
}
