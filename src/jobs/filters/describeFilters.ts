import type { NonMemberCounts } from '../job/NonMemberTally.js';
import type { MemberFilters } from '../planner.js';

/**
 * Who a job is about, for people: `every member`, `members with @Staff who joined before
 * 2024-01-31 00:00 UTC, except those with @Bots`, `every member among the 500 user ids in
 * “raid.csv”`. `roleName` gives a role's name with its `@`
 * (`@everyone` for the guild's id).
 */
export function describeFilters(filters: MemberFilters, roleName: (id: string) => string): string {
	const kind = filters.members === 'bots' ? 'bots' : filters.members === 'humans' ? 'humans' : 'members';
	const who =
		filters.onlyRoleId !== undefined
			? `${kind} with ${roleName(filters.onlyRoleId)}`
			: filters.members === undefined || filters.members === 'all'
				? 'every member'
				: `every ${kind === 'bots' ? 'bot' : 'human'}`;
	const parts = [who];
	if (filters.userIds !== undefined) parts.push(`among ${listed(filters.userIds.length, filters.userIdsFrom)}`);
	if (filters.noRoles) parts.push('with no role');
	// A rule's durations as the rule reads them: always back from now.
	const ago = filters.ago ?? {};
	if (ago.joinedAfter !== undefined) parts.push(`who joined in the last ${span(ago.joinedAfter)}`);
	else if (filters.joinedAfter !== undefined) parts.push(`who joined at or after ${when(filters.joinedAfter)}`);
	if (ago.joinedBefore !== undefined) parts.push(`who joined more than ${span(ago.joinedBefore, 'a ')} ago`);
	else if (filters.joinedBefore !== undefined) parts.push(`who joined before ${when(filters.joinedBefore)}`);
	if (ago.createdAfter !== undefined) parts.push(`whose account was created in the last ${span(ago.createdAfter)}`);
	else if (filters.createdAfter !== undefined) parts.push(`whose account was created at or after ${when(filters.createdAfter)}`);
	if (ago.createdBefore !== undefined) parts.push(`whose account is more than ${span(ago.createdBefore, 'a ')} old`);
	else if (filters.createdBefore !== undefined) parts.push(`whose account was created before ${when(filters.createdBefore)}`);
	if (filters.nameMatches !== undefined)
		parts.push(`whose name matches ${filters.nameMatches.startsWith('/') ? filters.nameMatches : `“${filters.nameMatches}”`}`);
	let text = parts.join(' ');
	if (filters.excludeRoleId !== undefined) text += ` except those with ${roleName(filters.excludeRoleId)}`;
	return text;
}

/**
 * `the 500 user ids in “raid.csv”`: the ids a job is limited to, and where they came from. For
 * the status of a job that counts which of them are not members, too.
 */
export function listed(count: number, from: string | undefined): string {
	const ids = count === 1 ? 'the one user id' : `the ${count.toLocaleString('en-US')} user ids`;
	return from === undefined ? `${ids} listed` : `${ids} in “${from}”`;
}

/** What a job limited to a file of ids did with those no member had, for {@link describeListedIds}. */
export interface NonMembersSeen {
	/** The action's word for one it changed: `banned`. */
	readonly changed: string;
	readonly dryRun: boolean;
	/** The job's filters that kept them from an action that reaches them (`NonMemberHandling.memberOnly`). */
	readonly memberOnly: readonly string[];
	/** What became of them so far, when the action reaches them; absent when it does not. */
	readonly counts?: NonMemberCounts | undefined;
}

/**
 * What a job limited to a list of user ids found of them, for its status: `Only the 500 user ids
 * in “ids.txt”: 12 of them are not members of the server, so nothing is sent for them.` Before
 * the listing has gone through the guild (`notMembers` undefined), only which list it is. For an
 * action that reaches users who are not members (`seen.counts`), what became of them, and when
 * Discord stopped them, its reason and what to do.
 */
export function describeListedIds(count: number, from: string | undefined, notMembers: number | undefined, seen?: NonMembersSeen): string {
	const head = `Only ${listed(count, from)}`;
	if (notMembers === undefined) return `${head}: who of them are not members is known once the guild is listed.`;
	if (notMembers === 0) return `${head}: every one of them is a member of the server.`;
	const one = notMembers === 1;
	const them = `${figure(notMembers)} of them ${one ? 'is not a member' : 'are not members'} of the server`;
	const counts = seen?.counts;
	if (!counts) {
		const why = seen && seen.memberOnly.length > 0 ? `: only a member can be judged by ${joinWords(seen.memberOnly)}` : '';
		return `${head}: ${them}, so nothing is sent for ${one ? 'it' : 'them'}${why}.`;
	}
	const who = `${head}: ${them} (they left, or never joined)`;
	const done = seen.dryRun ? `would be ${seen.changed}` : seen.changed;
	if (counts.handed === 0 && !counts.stop) return `${who}: they ${seen.dryRun ? 'would be' : 'are'} ${seen.changed} too, once the members are done.`;
	const parts = [`${figure(counts.changed)} of them ${done}`];
	if (counts.alreadyDone > 0) parts.push(`${figure(counts.alreadyDone)} already done`);
	if (counts.leftAlone > 0) parts.push(`${figure(counts.leftAlone)} left alone`);
	if (counts.failed > 0) parts.push(`${figure(counts.failed)} failed`);
	const line = `${who}: ${parts.join(', ')}.`;
	return counts.stop ? `${line} ⚠️ ${counts.stop.message}` : line;
}

/** `1,234`. */
function figure(count: number): string {
	return count.toLocaleString('en-US');
}

/** `the name pattern`, `the role and the join date`, `a, b and c`. */
function joinWords(words: readonly string[]): string {
	return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const UNIT_WORDS: Readonly<Record<string, string>> = { m: 'minute', h: 'hour', d: 'day', w: 'week', y: 'year' };

/** `day` (or `a day`) for `1d`, `12 hours` for `12h`: a duration as `parseDateOrDuration` reads it, in words. */
function span(duration: string, one = ''): string {
	const count = Number.parseInt(duration, 10);
	const unit = UNIT_WORDS[duration.trim().slice(-1)] ?? duration;
	return count === 1 ? `${one}${unit}` : `${count.toLocaleString('en-US')} ${unit}s`;
}

/** `2024-01-31 18:00 UTC`. */
function when(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
