import type { MemberRecord } from '../../discord/MemberRecord.js';
import { DISCORD_EPOCH, isSnowflake, timestampToSnowflake } from '../../discord/snowflake.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { GuildContext } from '../GuildContext.js';
import { compareSnowflakes } from './compareSnowflakes.js';
import { compileNamePattern, type NameMatcher } from './compileNamePattern.js';
import { MEMBER_KINDS, type MemberFilterSpec, TIME_FILTERS, type TimeFilter } from './MemberFilterSpec.js';
import { isDuration } from './parseDateOrDuration.js';
import { MAX_LISTED_IDS } from './parseIdList.js';

/** What the filters read of a member: the record the planner has, its join time included. */
export type FilterableMember = Pick<MemberRecord, 'id' | 'username' | 'globalName' | 'nick' | 'roles' | 'bot' | 'joinedAt'>;

/** Why a member is outside a job's filters: what the status and the logs show. */
export type MemberFilterSkip =
	| 'is-a-bot'
	| 'not-a-bot'
	| 'has-roles'
	| 'created-after'
	| 'created-before'
	| 'joined-after'
	| 'joined-before'
	| 'joined-unknown'
	| 'name-mismatch'
	| 'not-listed';

/** A job's filters, compiled: why `member` is not in scope, or `undefined` when it is. */
export type MemberFilter = (member: FilterableMember) => MemberFilterSkip | undefined;

const EVERY_MEMBER: MemberFilter = () => undefined;

/**
 * Compiles a job's filters once, so that deciding a member costs a few comparisons and allocates
 * nothing: the planner runs it for every member of the guild, ten million in the largest.
 *
 * Cheap checks first (flags, then the id: listed, then its age; then the join time); the name
 * pattern last. A member
 * outside several filters gets the first reason in that order. Account age is read from the user
 * id by comparing it with the smallest id of the filter's millisecond (see `compareSnowflakes`);
 * a member whose join time Discord does not give is outside any join-time filter, since nobody
 * can tell whether it is in.
 *
 * The spec may come from a journal's header, so it is checked as if typed by hand.
 *
 * @throws JobError (`INVALID_ARGUMENT`) naming the field that cannot be used
 */
export function compileMemberFilter(spec: MemberFilterSpec, ctx: Pick<GuildContext, 'guildId'>): MemberFilter {
	const members = spec.members ?? 'all';
	if (!MEMBER_KINDS.includes(members)) invalid('members', `is "${String(members)}"; it must be one of ${MEMBER_KINDS.join(', ')}`);
	if (spec.noRoles !== undefined && typeof spec.noRoles !== 'boolean') invalid('noRoles', 'must be true or false');
	const joinedAfter = window(spec, 'joinedAfter', 'joinedBefore');
	const joinedBefore = spec.joinedBefore;
	const createdAfter = window(spec, 'createdAfter', 'createdBefore');
	const createdBefore = spec.createdBefore;
	if (spec.nameMatches !== undefined && typeof spec.nameMatches !== 'string') invalid('nameMatches', 'must be a text');
	const listed = spec.userIds === undefined ? undefined : listedIds(spec.userIds);
	if (spec.userIdsFrom !== undefined && typeof spec.userIdsFrom !== 'string') invalid('userIdsFrom', 'must be a text');
	if (spec.ago !== undefined) checkAgo(spec);

	const wantBot = members === 'all' ? undefined : members === 'bots';
	const noRoles = spec.noRoles === true;
	const guildId = ctx.guildId;
	const firstIdAfter = createdAfter === undefined ? undefined : firstSnowflakeAt(createdAfter);
	const firstIdBefore = createdBefore === undefined ? undefined : firstSnowflakeAt(createdBefore);
	const byJoin = joinedAfter !== undefined || joinedBefore !== undefined;
	const name: NameMatcher | undefined = spec.nameMatches === undefined ? undefined : compileNamePattern(spec.nameMatches);

	if (wantBot === undefined && !noRoles && firstIdAfter === undefined && firstIdBefore === undefined && !byJoin && !name && !listed) {
		return EVERY_MEMBER;
	}
	return (member) => {
		if (wantBot !== undefined && member.bot !== wantBot) return wantBot ? 'not-a-bot' : 'is-a-bot';
		// Discord never lists `@everyone`, but `hasRole` treats the guild's id as it, so this does too.
		if (noRoles && member.roles.length > 0 && !(member.roles.length === 1 && member.roles[0] === guildId)) return 'has-roles';
		if (listed && !listed.has(member.id)) return 'not-listed';
		if (firstIdAfter !== undefined && compareSnowflakes(member.id, firstIdAfter) < 0) return 'created-before';
		if (firstIdBefore !== undefined && compareSnowflakes(member.id, firstIdBefore) >= 0) return 'created-after';
		if (byJoin) {
			const joinedAt = member.joinedAt;
			if (joinedAt === null || joinedAt === undefined) return 'joined-unknown';
			if (joinedAfter !== undefined && joinedAt < joinedAfter) return 'joined-before';
			if (joinedBefore !== undefined && joinedAt >= joinedBefore) return 'joined-after';
		}
		if (name && !name(member.username) && !(member.globalName !== null && name(member.globalName)) && !(member.nick !== null && name(member.nick))) {
			return 'name-mismatch';
		}
		return undefined;
	};
}

/** Checks a spec's `userIds` as `parseIdList` leaves them (snowflakes, sorted, each once, within the bound) and sets them. */
function listedIds(ids: unknown): ReadonlySet<string> {
	if (!Array.isArray(ids) || ids.length === 0) invalid('userIds', 'must be a list of at least one user id');
	if (ids.length > MAX_LISTED_IDS) invalid('userIds', `holds ${ids.length} ids, more than ${MAX_LISTED_IDS}`);
	ids.forEach((id: unknown, index) => {
		if (!isSnowflake(id)) invalid('userIds', `has ${JSON.stringify(id)} at ${index}, not a user id`);
		if (index > 0 && compareSnowflakes(ids[index - 1] as string, id) >= 0) invalid('userIds', `is not sorted by value without repeats at ${index}`);
	});
	return new Set(ids as string[]);
}

/**
 * The smallest snowflake made at or after `ms`, as Discord writes ids, so that an id made before
 * `ms` compares below it. Before Discord's epoch, `0`: every id is made after.
 */
export function firstSnowflakeAt(ms: number): string {
	// Ids count whole milliseconds: "before 10.5" is "before 11".
	const time = Math.ceil(ms);
	return time <= Number(DISCORD_EPOCH) ? '0' : String(timestampToSnowflake(time));
}

/** Checks a rule's durations: each a duration as typed, for a time filter the spec holds resolved. */
function checkAgo(spec: MemberFilterSpec): void {
	const ago: unknown = spec.ago;
	if (typeof ago !== 'object' || ago === null || Array.isArray(ago)) invalid('ago', 'must be an object of durations');
	for (const [field, text] of Object.entries(ago)) {
		if (!TIME_FILTERS.includes(field as TimeFilter)) invalid('ago', `names ${JSON.stringify(field)}, not a time filter`);
		if (typeof text !== 'string' || !isDuration(text)) invalid('ago', `holds ${JSON.stringify(text)} for ${field}, not a duration such as 1d`);
		if (spec[field as TimeFilter] === undefined) invalid('ago', `holds a duration for ${field}, which is not set`);
	}
}

/** Checks `spec[after]` and `spec[before]` are times, and that a member can be between them; returns `spec[after]`. */
function window(spec: MemberFilterSpec, after: TimeFilter, before: TimeFilter): number | undefined {
	const start = spec[after];
	const end = spec[before];
	for (const [field, value] of [
		[after, start],
		[before, end],
	] as const) {
		if (value !== undefined && (typeof value !== 'number' || Number.isNaN(new Date(value).getTime()))) invalid(field, `is ${String(value)}, not a time`);
	}
	if (start !== undefined && end !== undefined && start >= end) {
		const from = new Date(start).toISOString();
		const to = new Date(end).toISOString();
		invalid(after, `(${from}) is not before ${before} (${to}), so no member could be in the job`);
	}
	return start;
}

function invalid(field: keyof MemberFilterSpec, what: string): never {
	throw new JobError(ErrorCodes.InvalidArgument, `The member filter's ${field} ${what}.`);
}
