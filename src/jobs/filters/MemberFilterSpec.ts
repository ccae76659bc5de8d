/**
 * Which members a job is about, besides its role filters (`MemberFilters` in the planner): the
 * finer aim users know from Dyno's `?role all | humans | bots`, "members without roles", join date,
 * account age and name patterns.
 *
 * Plain JSON on purpose: the journal's header keeps it as it is, so a resumed or audited job aims
 * at the same members. Every field is optional and an absent one filters nothing, so `{}` is every
 * member. Times are Unix milliseconds, already resolved from what the user typed
 * (see `parseDateOrDuration`), so a resumed job does not drift with the clock.
 *
 * Each time window is half-open, `after <= t < before`, so "before X" and "after X" split the guild
 * into two jobs with no member in both and none in neither.
 */
export interface MemberFilterSpec {
	/** `humans` leaves bots out, `bots` leaves humans out; `all` (the default) keeps both. */
	readonly members?: MemberKind | undefined;
	/** Only members with no role but `@everyone` (which every member has). */
	readonly noRoles?: boolean | undefined;
	/** Only members who joined the guild before this time. */
	readonly joinedBefore?: number | undefined;
	/** Only members who joined the guild at or after this time. */
	readonly joinedAfter?: number | undefined;
	/** Only accounts created before this time (read from the user id). */
	readonly createdBefore?: number | undefined;
	/** Only accounts created at or after this time (read from the user id). */
	readonly createdAfter?: number | undefined;
	/**
	 * Only members whose username, display name or nickname matches, as the user typed it:
	 * `/pattern/flags` is a regular expression, anything else a case-insensitive substring
	 * (see `compileNamePattern`).
	 */
	readonly nameMatches?: string | undefined;
	/**
	 * Only members whose user id is listed (a file of ids, see `parseIdList`): sorted by value as
	 * `compareSnowflakes` orders them, each once, at most `MAX_LISTED_IDS`. Sorted so that the
	 * listing, which comes in id order, can be matched against it, and so that the listed ids no
	 * member had are a sorted list too, for an action that reaches users who are not members.
	 */
	readonly userIds?: readonly string[] | undefined;
	/** Where {@link userIds} came from, for people: the file's name (`raid.csv`). */
	readonly userIdsFrom?: string | undefined;
	/**
	 * For a standing rule only: the time filters the user gave as a duration back from now, as
	 * typed (`{ createdAfter: '1d' }`). The times above hold them resolved when the rule started
	 * (or resumed); the rule reads them anew as it plans (see `RuleFilters`), so `created_after:1d`
	 * means "a day old" in its third month too. A job that is not a rule has none: it resolves once.
	 */
	readonly ago?: Readonly<Partial<Record<TimeFilter, string>>> | undefined;
}

/** The filters that are a point in time. */
export type TimeFilter = 'joinedBefore' | 'joinedAfter' | 'createdBefore' | 'createdAfter';

/** Every {@link TimeFilter}, in the order a header keeps them. */
export const TIME_FILTERS: readonly TimeFilter[] = Object.freeze(['joinedBefore', 'joinedAfter', 'createdBefore', 'createdAfter']);

/** Dyno's `?role all | humans | bots`. */
export type MemberKind = 'all' | 'humans' | 'bots';

/** Every value of {@link MemberKind}, for parsing and for error messages. */
export const MEMBER_KINDS: readonly MemberKind[] = Object.freeze(['all', 'humans', 'bots']);
