import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, type RESTPatchAPIGuildMemberJSONBody, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import {
	type ActionWords,
	type ChangeRequest,
	type ChangeTarget,
	DONE,
	type EntryLife,
	type GuildContext,
	hasAdministrator,
	type MassAction,
	outOfReach,
	type Plan,
	type SlotValue,
} from '../../jobs/index.js';
import { withOwnReason } from './withOwnReason.js';
import { stamp } from './timeoutEnd.js';

/** The action's name in journals. */
export const TIMEOUT = 'timeout';

/** Why a member holding Administrator is left alone: Discord answers 403 to any timeout of them. */
export const ADMINISTRATOR = 'administrator';

/** Why a job past its end plans nobody: every timeout it would set is over. */
export const ENDED = 'timeout-ended';

/** What the action is asked for: when the timeouts end, and the requester's reason, if any. */
export interface TimeoutRequest {
	/** Unix milliseconds, on a whole second (see `timeoutEnd`). */
	readonly until: number;
	/** Their own words for the audit log, after massnick's reason. */
	readonly reason?: string | undefined;
}

/**
 * Times out every member the job is about until one end, fixed when the job starts
 * (`/masstimeout`): `communication_disabled_until` with Modify Guild Member, which needs Moderate
 * Members. The value is the end of the timeout in force (an ISO time), `null` for none: Discord
 * keeps an ended timeout's time in the past, so an end before now is no timeout. A member already
 * timed out until the job's end or later is done, and keeps theirs. Undo (`/restore`) gives each
 * member the timeout they had before (none, or an earlier one), where they still have the job's.
 *
 * Left alone without a request: the owner and members at or above the workers or the requester
 * (`outOfReach`), and holders of Administrator, whom Discord refuses to time out.
 *
 * `now` is the clock the value is read against: a timeout is in force only until its end.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export class TimeoutAction implements MassAction {
	readonly type = TIMEOUT;
	readonly field = 'timeout';
	/** The end, and the reason after a space: an end has none, so the journal gives both back. */
	readonly target: string;
	readonly permission = PermissionFlagsBits.ModerateMembers;
	readonly words: ActionWords;
	readonly until: number;
	readonly reason: string | undefined;
	/**
	 * A timeout past its end has lifted itself: nothing is left to undo. A member who leaves keeps
	 * their entry: it comes to its end all the same.
	 */
	readonly entryLife: EntryLife = { expired: (entry, now) => entry.to !== null && Date.parse(entry.to) <= now };
	readonly #now: () => number;

	constructor({ until, reason }: TimeoutRequest, now: () => number = Date.now) {
		this.until = until;
		this.reason = reason;
		this.#now = now;
		const end = stamp(until);
		this.target = reason === undefined ? end : `${end} ${reason}`;
		const why = reason === undefined ? '' : `, reason “${reason.length > 100 ? `${reason.slice(0, 100)}…` : reason}”`;
		this.words = {
			doing: `Timing out until ${end}${why}`,
			undoing: `Lifting the timeouts set until ${end}`,
			changed: 'timed out',
			holds: `timed out until ${end}`,
		};
	}

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		const now = this.#now();
		// Past its end, every timeout the job would set is over: the job is about nobody any more
		// (not "done": a count then would say everyone is timed out).
		if (this.until <= now) return { action: 'skip', reason: ENDED };
		const current = inForce(member.communicationDisabledUntil ?? null, now);
		if (current !== null && seconds(current) >= seconds(this.until)) return DONE;
		const cant = this.outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: current === null ? null : new Date(current).toISOString(), to: new Date(this.until).toISOString() };
	}

	/** The member's timeout in force ends at `value` (to the second), or they have none in force and `value` is none or over. */
	holds(member: MemberRecord, value: SlotValue): boolean {
		const now = this.#now();
		const current = inForce(member.communicationDisabledUntil ?? null, now);
		const wanted = value === null ? null : inForce(Date.parse(value), now);
		return current === null || wanted === null ? current === wanted : seconds(current) === seconds(wanted);
	}

	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined {
		return outOfReach(member, ctx) ?? (hasAdministrator(member, ctx) ? ADMINISTRATOR : undefined);
	}

	/**
	 * Discord refusing the end itself (more than 28 days ahead of its clock) is the same answer for
	 * every member: the first ends the job, saying what to change.
	 */
	endsJob(error: unknown): JobError | undefined {
		if (!(error instanceof DiscordAPIError) || error.code !== RESTJSONErrorCodes.InvalidFormBodyOrContentType) return undefined;
		const errors = (error.rawError as { errors?: Record<string, unknown> }).errors;
		if (errors?.communication_disabled_until === undefined) return undefined;
		return new JobError(
			ErrorCodes.InvalidArgument,
			`Discord refused the end of the timeouts (${stamp(this.until)}): it takes at most 28 days ahead of its own clock, and this machine's clock may be ahead of Discord's. The job stopped; run it again with a shorter duration (27d), and /restore lifts what it set.`,
			{ context: { until: stamp(this.until) } },
		);
	}

	/** Modify Guild Member with the end; an end already past is sent as none, which Discord takes the same. */
	async apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		const end = to === null || Date.parse(to) <= this.#now() ? null : to;
		const body: RESTPatchAPIGuildMemberJSONBody = { communication_disabled_until: end };
		await target.rest.patch(Routes.guildMember(target.guildId, memberId), { body, reason: withOwnReason(request.reason, this.reason), signal: request.signal });
	}
}

/** `until` while it is ahead of `now`; `null` when there is none or it is over. */
function inForce(until: number | null, now: number): number | null {
	return until !== null && Number.isFinite(until) && until > now ? until : null;
}

function seconds(ms: number): number {
	return Math.floor(ms / 1000);
}
