import type { MassnickJob } from '../massnickJobs.js';

const DAY_MS = 86_400_000;

/** How long the rule's timeouts last. */
export const RULE_TIMEOUT = '1h';

/**
 * The standing rule the owner makes before the burst, as a moderator expecting a raid would:
 * `/masstimeout duration:1h created_after:<a day before now> keep:true`. A rule still refuses a
 * filter given as a time back from now (`created_after:1d`, read once when it starts), so the
 * day before is given as the date and time it is, from the clock the sandbox shares with the
 * bench; the burst lasts minutes, so the day it selects hardly moves meanwhile.
 */
export function joinBurstRule(now: number): Pick<MassnickJob, 'command' | 'options'> {
	return { command: 'masstimeout', options: { duration: RULE_TIMEOUT, created_after: dayBefore(now), keep: true } };
}

/** The rule as the report shows it, its date written as a placeholder. */
export const RULE_AS_TYPED = `/masstimeout duration:${RULE_TIMEOUT} created_after:<a day before, as a UTC time> keep:true`;

/** A day before `now`, to the second, in UTC: `2026-12-02T12:34:56Z`. */
function dayBefore(now: number): string {
	return `${new Date(now - DAY_MS).toISOString().slice(0, 19)}Z`;
}
