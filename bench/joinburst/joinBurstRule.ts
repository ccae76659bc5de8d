import type { MassnickJob } from '../massnickJobs.js';

/** How long the rule's timeouts last. */
export const RULE_TIMEOUT = '1h';

/**
 * The standing rule the owner makes before the burst, as a moderator expecting a raid would, and
 * as the README's Standing rules section writes it: every joiner whose account is less than a
 * day old is timed out for an hour. A rule reads `created_after:1d` anew every minute, so the
 * day is counted back from when each joiner is planned.
 */
export const JOIN_BURST_RULE: Pick<MassnickJob, 'command' | 'options'> = {
	command: 'masstimeout',
	options: { duration: RULE_TIMEOUT, created_after: '1d', keep: true },
};

/** The rule as typed: `/masstimeout duration:1h created_after:1d keep:true`. */
export const RULE_AS_TYPED = [
	`/${JOIN_BURST_RULE.command}`,
	...Object.entries(JOIN_BURST_RULE.options).map(([name, value]) => `${name}:${String(value)}`),
].join(' ');
