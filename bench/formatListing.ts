import type { ListingResult } from './ListingResult.js';
import { PAGES_PER_WINDOW } from './measureListing.js';
import type { Scenario } from './scenarios.js';

/**
 * The report's lines for one scenario's listing-only measurement: the time, the same on
 * Discord's real windows, and what paced it. A dry run's slices plan each page at once and send
 * nothing, so nothing in the job holds the listing back; what is left besides the rate limit is
 * each page's round trip and how late each window reopens, both measured and printed here.
 */
export function formatListing(scenario: Scenario, listing: ListingResult): string[] {
	if (listing.status !== 'measured') return [`  ${scenario.name}: ${listing.status}: ${(listing.reason ?? '').split('\n')[0]}`];
	const count = (value: number | null): string => (value === null ? '—' : value.toLocaleString('en'));
	const seconds = (ms: number | null): string => (ms === null ? '—' : (ms / 1000).toFixed(1));
	const minutes = (value: number | null): string => (value === null ? '—' : `${value.toFixed(0)} s = ${(value / 60).toFixed(1)} min`);
	const percent = (value: number | null): string => (value === null ? '—' : `${(value * 100).toFixed(1)}%`);
	const window = listing.rateLimitWindowMs;
	const lines = [
		`  ${scenario.name}: ${listing.listedBy?.join(', ')} listed ${count(listing.members)} members in ${count(listing.pages)} pages: ${seconds(listing.firstToLastPageMs)} s from first page to last at ${scenario.timeScale}× (${listing.pagesPerSecond ?? '—'} pages/s, ${count(listing.membersPerSecond)} members/s; ${percent(listing.shareOfRateLimit)} of the rate limit's pace, ${listing.allowedPagesPerSecond} pages/s); ${listing.rateLimited429} 429s, ${listing.forbidden403} 403s, ${listing.pagesByOthers} pages by other bots`,
		`      on Discord's real windows: ${minutes(listing.realTimeSeconds)} scaled × ${scenario.timeScale} (${count(listing.realTimeMembersPerSecond)} members/s); ${minutes(listing.realTimeRateLimitSeconds)} by the rate limit alone`,
	];
	const { medianTenPagesMs: tenPages, medianPageIntervalMs: roundTrip } = listing;
	if (tenPages !== null && roundTrip !== null && tenPages > 0) {
		const filled = (roundTrip * PAGES_PER_WINDOW) / window;
		const pace =
			filled >= 0.5
				? `ten round trips fill ${(filled * 100).toFixed(0)}% of a window, so at this time scale the round trips (the sandbox serving 1000 members, the boss parsing and planning them, on a shared machine) share in setting the pace and a slow page pushes the next window back`
				: `ten round trips fill ${(filled * 100).toFixed(0)}% of a window and the rest is the wait for the reset; a window reopens only when the next request reaches the sandbox, ${(tenPages - window).toFixed(0)} ms after the reset (discord.js's offset, its timer, the request's way there)`;
		lines.push(
			`      10 pages (a window's allowance) took ${tenPages.toFixed(0)} ms (median) against the ${window} ms window; a page's round trip ${roundTrip.toFixed(0)} ms: ${pace}; on Discord's 10 s windows they would fill ${((filled * 100) / scenario.timeScale).toFixed(1)}%`,
		);
	}
	return lines;
}
