import { timestampToSnowflake } from '../../discord/snowflake.js';
import { compareSnowflakes } from './compareSnowflakes.js';
import { firstSnowflakeAt } from './compileMemberFilter.js';
import type { MemberFilterSpec } from './MemberFilterSpec.js';

/** The part of the guild's id order a job's filters can select from (see `listingBounds`). */
export interface ListingBounds {
	/** List the ids after this one (exclusive); the start of the guild when absent. */
	readonly after?: string | undefined;
	/** No member past this id can be selected: the listing may stop once a page reaches it. */
	readonly last?: string | undefined;
}

/**
 * Where a listing can start and stop for these filters. A user id is a snowflake, which begins
 * with the time the account was made, and Discord lists members in id order: an account created
 * at or after `createdAfter` has an id at or above that moment's first snowflake, and a job
 * limited to a file of ids selects nobody outside its first and last id. So a raid cleanup aimed
 * `created_after:1d` lists the day's new accounts, not a ten-million-member guild: seconds where
 * the whole listing would take hours.
 *
 * @see https://discord.com/developers/docs/reference#snowflakes
 * @see https://discord.com/developers/docs/resources/guild#list-guild-members
 */
export function listingBounds(filters: MemberFilterSpec | undefined, now: number = Date.now()): ListingBounds {
	if (!filters) return {};
	const starts: string[] = [];
	const ends: string[] = [];
	if (filters.createdAfter !== undefined) starts.push(firstSnowflakeAt(filters.createdAfter));
	if (filters.createdBefore !== undefined) {
		const first = firstSnowflakeAt(filters.createdBefore);
		// Nothing was created before Discord's epoch: the filters select nobody, which the plan says.
		if (first !== '0') ends.push(String(BigInt(first) - 1n));
	}
	const ids = filters.userIds;
	if (ids !== undefined && ids.length > 0) {
		starts.push(ids[0]!);
		ends.push(ids[ids.length - 1]!);
	}
	const start = starts.reduce<string | undefined>((latest, id) => (latest === undefined || compareSnowflakes(id, latest) > 0 ? id : latest), undefined);
	const last = ends.reduce<string | undefined>((earliest, id) => (earliest === undefined || compareSnowflakes(id, earliest) < 0 ? id : earliest), undefined);
	// `after` is exclusive: one below the first id that can be selected. No id is made after now,
	// so a start in the future lists from now (nobody yet), and never past what a snowflake holds.
	const after = start === undefined || start === '0' ? undefined : String(min(BigInt(start) - 1n, timestampToSnowflake(now)));
	return { ...(after === undefined ? {} : { after }), ...(last === undefined ? {} : { last }) };
}

function min(a: bigint, b: bigint): bigint {
	return a < b ? a : b;
}
