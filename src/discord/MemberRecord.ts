/**
 * What massnick keeps of a guild member: a compact copy of Discord's guild member object, made
 * as each page is listed (see `toMemberRecord`). Every mass action plans from it alone.
 */
export interface MemberRecord {
	readonly id: string;
	readonly username: string;
	/** The user's display name (`global_name`). */
	readonly globalName: string | null;
	/** The guild nickname; `null` when none (Discord shows the display name). */
	readonly nick: string | null;
	/** Role ids, `@everyone` not included (Discord never lists it). */
	readonly roles: readonly string[];
	readonly bot: boolean;
	/**
	 * When they joined the guild, Unix milliseconds (`joined_at`), for the join-date filters;
	 * `null` when Discord gives none (a guest member), absent where nobody read it.
	 */
	readonly joinedAt?: number | null | undefined;
	/**
	 * When their timeout ends, Unix milliseconds (`communication_disabled_until`); `null` when
	 * none was ever set or it was lifted. Discord keeps an ended timeout's time (in the past) until
	 * it is set again, so a time before now means no timeout. Absent where nobody read it.
	 *
	 * @see {@link https://discord.com/developers/docs/resources/guild#guild-member-object}
	 */
	readonly communicationDisabledUntil?: number | null | undefined;
	/**
	 * `true` for an entry of the guild's ban list (a user banned, no longer a member: no nickname,
	 * no roles, no join date); absent for a member.
	 */
	readonly banned?: true | undefined;
	/**
	 * `true` for a user id of a job's file that no member had (they left, or never joined), handed
	 * to an action that reaches such users (a ban): only the id is known, so no name, no roles;
	 * `banned` too when the guild's ban list holds them. Absent for a member.
	 */
	readonly nonMember?: true | undefined;
}
