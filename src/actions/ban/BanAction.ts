import { DiscordAPIError, PermissionFlagsBits, RequestMethod, RESTJSONErrorCodes, type RESTPostAPIGuildBulkBanResult, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { requestPaced } from '../../discord/requestPaced.js';
import { ErrorCodes, JobError } from '../../errors.js';
import {
	type ActionWords,
	type BatchApply,
	type ChangeRequest,
	type ChangeTarget,
	DONE,
	type GuildContext,
	type MassAction,
	type NonMemberReach,
	outOfReach,
	type Plan,
	type SlotValue,
} from '../../jobs/index.js';
import { type BanOptions, banTarget } from './banTarget.js';

/** Discord's answer past its limit on bans of users who are not members (counted for every bot of the guild together). */
function isNonMemberLimit(error: unknown): boolean {
	return error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded;
}

/** What the job says when Discord bans no more users who are not members: why, what was not done, what to do. */
function nonMemberLimitError(): JobError {
	return new JobError(
		ErrorCodes.NonMemberBanLimit,
		'Discord refused to ban more users who are not members (30035): it lets a server ban only so many of them for a while, for every bot of the server together, and publishes no figure. The job stopped banning them and banned the members all the same; those of them it did not ban are counted failed. Nothing needs undoing: run the same command again later (Discord lifts the limit with time) and it bans only who is left.',
	);
}

/** The action's name in journals. */
export const BAN = 'ban';
/** A member's value once banned; `null` before. */
export const BANNED = 'banned';
/** Discord's most users in one Bulk Guild Ban. */
export const BULK_BAN_SIZE = 200;
/** Discord takes 1 to 512 characters in `X-Audit-Log-Reason`. */
const REASON_MAX = 512;

/**
 * Bans every member the job is about (`/massban`), 200 a call with Bulk Guild Ban, each worker its
 * own slice, every call's members journaled before it goes out. A member is `null` before and
 * `banned` after; a banned user is no member, so a rerun lists only who is left (the done marker
 * lives in Discord), and the undo walks the guild's ban list instead of its members, unbanning
 * exactly the users the job banned who are still banned, one Remove Guild Ban each.
 *
 * Bulk Guild Ban needs Ban Members and Manage Guild both, of who asks and of the workers. Members
 * out of reach (the owner, at or above the workers or the requester) are never sent: Discord
 * would only list them as failed.
 *
 * A ban reaches users who are not members too (someone who left the raid): a job limited to a
 * file of ids bans, after its members, the listed ids no member had, found done in the ban list
 * (see {@link nonMembers}). Discord ranks nobody above them; the owner, the requester and our own
 * bots are still never banned.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#bulk-guild-ban}
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-ban}
 */
export class BanAction implements MassAction {
	readonly type = BAN;
	/** A kick and a ban both end a membership. */
	readonly field = 'membership';
	readonly target: string;
	readonly permission = PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild;
	readonly restoreListing = 'bans';
	readonly removesMember = true;
	readonly words: ActionWords = {
		doing: 'Banning members',
		undoing: 'Unbanning the users the job banned',
		changed: 'banned',
		holds: 'been banned',
	};
	readonly nonMembers: NonMemberReach = {
		done: 'bans',
		limitReached: (error) => (isNonMemberLimit(error) ? nonMemberLimitError() : undefined),
	};
	readonly applyBatch: BatchApply = {
		size: BULK_BAN_SIZE,
		// One bulk ban a second per worker, as the sandbox assumes: Discord publishes no figure (docs/discord.md).
		perSecond: BULK_BAN_SIZE,
		send: (target, changes, request) => this.#bulkBan(target, changes, request),
	};

	constructor(readonly options: BanOptions) {
		this.target = banTarget(options);
	}

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		if (member.banned) return DONE;
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: null, to: BANNED };
	}

	/** A user of the ban list is banned; a member of the guild is not. */
	holds(member: MemberRecord, value: SlotValue): boolean {
		return (member.banned === true) === (value !== null);
	}

	/** Discord bounds a ban by the member's rank; an unban has no member to rank, so every banned user is in reach. */
	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined {
		return member.banned ? undefined : outOfReach(member, ctx);
	}

	/**
	 * A refusal no other call can get past: the workers lost Ban Members or Manage Guild (403, a
	 * member out of reach is a failed user, not a 403). Discord's limit on bans of users who are
	 * not members (30035) stops only those: see {@link nonMembers}.
	 */
	endsJob(error: unknown): JobError | undefined {
		if (!(error instanceof DiscordAPIError) || error.code !== RESTJSONErrorCodes.MissingPermissions) return undefined;
		return new JobError(
			ErrorCodes.MissingPermission,
			"Discord refused the workers a ban for want of permission, so the job stopped: give the workers' role Ban Members and Manage Guild (Server Settings → Roles), then run the same command again: it continues where it stopped.",
			{ context: { permission: 'Ban Members, Manage Guild' } },
		);
	}

	/** Unbans (`to` null, the undo) or bans one user; a ban lifted by someone else meanwhile is lifted all the same. */
	async apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		const route = Routes.guildBan(target.guildId, memberId);
		const options = { reason: this.#reason(request.reason), signal: request.signal };
		if (to !== null) {
			await target.rest.put(route, { ...options, body: { delete_message_seconds: this.options.deleteMessageSeconds } });
			return;
		}
		try {
			await target.rest.delete(route, options);
		} catch (error) {
			if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownBan) return;
			throw error;
		}
	}

	/**
	 * One Bulk Guild Ban: every user Discord does not list as banned failed (already banned, out of
	 * reach: it does not say which). Paced by its answer's headers (see `requestPaced`): a worker's
	 * next bulk ban goes after the bucket's reset, not into a 429.
	 */
	async #bulkBan(target: ChangeTarget, changes: readonly { readonly id: string }[], request: ChangeRequest) {
		const result = (await requestPaced(target.rest, {
			method: RequestMethod.Post,
			fullRoute: Routes.guildBulkBan(target.guildId),
			body: { user_ids: changes.map((change) => change.id), delete_message_seconds: this.options.deleteMessageSeconds },
			reason: this.#reason(request.reason),
			signal: request.signal,
		})) as RESTPostAPIGuildBulkBanResult;
		const banned = new Set(result.banned_users);
		return { failed: new Map(changes.filter((change) => !banned.has(change.id)).map((change) => [change.id, 'not-banned'])) };
	}

	/** The moderator's reason first, then massnick's (who ran which job), within Discord's 512 characters. */
	#reason(engine: string): string {
		const own = this.options.reason;
		const points = Array.from(own === undefined ? engine : `${own} (${engine})`);
		return points.slice(0, REASON_MAX).join('');
	}
}
