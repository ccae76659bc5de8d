import type { REST } from 'discord.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import type { MassnickError } from '../errors.js';
import type { GuildContext } from './GuildContext.js';
import type { Plan, RestoreEntry, SlotValue } from './Plan.js';
import type { RequesterRank } from './RequesterRank.js';

/** Where one change goes: the owner worker's REST client (its own rate limits) and the guild. */
export interface ChangeTarget {
	readonly rest: REST;
	readonly guildId: string;
}

/** What a request carries besides the change: the audit-log reason and the job's cancel signal. */
export interface ChangeRequest {
	readonly reason: string;
	readonly signal: AbortSignal;
}

/** An action's words, for the status message, the replies and the logs. */
export interface ActionWords {
	/** The job running: `Adding @Event`. */
	readonly doing: string;
	/** Its undo running: `Taking @Event back from the members who got it`. */
	readonly undoing: string;
	/** A member changed by the job, for counts: `given @Event`. */
	readonly changed: string;
	/** What a member who is done has, for /stats: `@Event`. */
	readonly holds: string;
}

/** A role Discord told of while a job runs: deleted, or with its position now. */
export interface ChangedRole {
	readonly id: string;
	readonly deleted: boolean;
	/** Its position among the guild's roles (discord.js's, the same scale as the workers' highest). */
	readonly position: number;
}

/**
 * A precondition an action adds to the engine's own (see `Admission`): checked after them, at
 * the command, at Start and at a resume. It throws a `JobError` that says what to do.
 */
export interface ActionPrecondition {
	/** Names it in a refusal's context and in the admission's log. */
	readonly name: string;
	check(request: { readonly undo: boolean; readonly rank: RequesterRank; readonly allowed?: ((permission: bigint) => boolean) | undefined }): void;
}

/** What one batched call answered: the changes of it Discord did not make. */
export interface BatchResult {
	/** Member id → why (a short kebab-case word), for each change of the call that was not made. */
	readonly failed: ReadonlyMap<string, string>;
}

/**
 * A way to send many of a job's changes in one call, where Discord has one (Bulk Guild Ban: up to
 * 200 users a call). The engine hands each worker's changes over in calls of up to `size`, every
 * call's originals journaled whole before it goes out; the undo goes member by member through
 * {@link MassAction.apply}.
 */
export interface BatchApply {
	/** The most changes one call carries. */
	readonly size: number;
	/** About how many changes one worker makes a second this way, for a preview's time (see `changesPerSecond`). */
	readonly perSecond: number;
	/**
	 * Sends `changes` in one call with the owner worker's REST client; resolves with those Discord
	 * did not make. Throws discord.js's errors as they come when the whole call failed.
	 */
	send(target: ChangeTarget, changes: readonly RestoreEntry[], request: ChangeRequest): Promise<BatchResult>;
}

/**
 * Where a restore finds who to plan: the guild's members (the default), or its ban list, for an
 * action whose changed members are no longer members (a ban).
 */
export type RestoreListing = 'members' | 'bans';

/**
 * How an action reaches users who are not members, for a job limited to a file of user ids (a
 * ban can be given to someone who left; no edit of a member can). See {@link MassAction.nonMembers}.
 */
export interface NonMemberReach {
	/** Where those already done are found: the guild's ban list (a banned user is done). */
	readonly done: 'bans';
	/**
	 * Whether a failed call about them means Discord takes no more of them for now while members
	 * still pass (a ban past Discord's limit on bans of users who are not members, 30035): the job
	 * then sends no more of them, counts each one not done as failed (`non-member-limit`), and says
	 * why with this error, which tells what to do.
	 */
	limitReached(error: unknown): MassnickError | undefined;
}

/**
 * Which of a job's journal entries a restore can no longer use, for a standing rule's journal,
 * which is compacted to those it can (see `compactJournal`). The engine knows nothing of what an
 * action sets: each says it here. Absent: every entry is kept (a ban can be lifted; a kick is a
 * record of who was kicked).
 */
export interface EntryLife {
	/**
	 * What the action set leaves with a member who leaves the guild: Discord gives a member who
	 * joins again no nickname and no roles, so their entry can undo nothing. The rule then journals
	 * a `left` line for them, and their next change, after they rejoin, journals their original anew.
	 */
	readonly lostOnLeave?: boolean | undefined;
	/** Whether `entry` has come undone by itself at `now` (Unix ms): a timeout past its end. */
	expired?(entry: RestoreEntry, now: number): boolean;
}

export interface MassAction {
	/** Names the action in journals, so a restore can rebuild it: `role-add`. */
	readonly type: string;
	/**
	 * What the action sets, as the journal keeps it (a template, a role id). A rerun of the same
	 * type and target appends to the same journal: that is how a staged rollout is one undo.
	 */
	readonly target: string;
	/**
	 * The guild permission Discord asks for it: every worker needs it, and so does who asks for the
	 * job (or its undo), by hand or by the operator's settings. Checked before a job starts.
	 */
	readonly permission: bigint;
	/**
	 * Why Discord cannot undo what the action does, for people, when it cannot: `A kick cannot be
	 * undone: kicked members must be invited back`. Set, the preview says it, the journal still
	 * keeps every member the job changed, and /restore answers with that journal instead of
	 * undoing it (see `journalToUndo`). Absent for an action /restore undoes.
	 */
	readonly irreversible?: string | undefined;
	/**
	 * The requester's own words for the audit log (`/masskick reason:`), added to the configured
	 * reason of every request the job sends (see `withRequesterReason`).
	 */
	readonly reason?: string | undefined;
	/** What must hold besides the engine's preconditions (see {@link ActionPrecondition}). */
	readonly preconditions?: readonly ActionPrecondition[] | undefined;
	readonly words: ActionWords;
	/**
	 * Plans one member the job is about (filters and our own bots are the engine's). `original`
	 * is the member's value from this journal's earlier runs, when it has one.
	 */
	plan(member: MemberRecord, ctx: GuildContext, original?: SlotValue): Plan;
	/** Whether the member's value is `value` now (the done marker, read from Discord's data). */
	holds(member: MemberRecord, value: SlotValue): boolean;
	/**
	 * For a restore: whether the member still has what the job set, though their value is not
	 * `set` to the letter (a template expanded anew from a member's changed data). Default: {@link holds}.
	 */
	stillSet?(member: MemberRecord, set: SlotValue): boolean;
	/**
	 * Why this member can never be changed for this action, or `undefined`: out of the workers'
	 * reach, or of the requester's (`ctx.requester`, see `outOfReach` in `GuildContext`).
	 */
	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined;
	/**
	 * Refuses the whole job (or its undo, `undo`), before anything is sent, when what it hands out
	 * is out of the requester's reach: Discord checks a role given or taken against the role, not
	 * the member, so a role at or above the requester's highest is theirs to hand out for nobody.
	 * Actions that edit members themselves bound them one by one in {@link outOfReach} instead.
	 *
	 * @throws {JobError} `ABOVE_REQUESTER`
	 */
	checkRequester?(ctx: GuildContext, undo: boolean): void;
	/**
	 * Whether a failed change means no other change of the job can pass (its role deleted, or
	 * moved out of the workers' reach): the job then stops with this error, and the rest is never
	 * sent. Undefined for a failure of that member alone.
	 */
	endsJob?(error: unknown): MassnickError | undefined;
	/**
	 * Asked on Discord's role events while the job runs (GUILD_ROLE_UPDATE and GUILD_ROLE_DELETE),
	 * with the role as it is now and the lowest of the workers' highest role positions: an error
	 * stops the job before its requests meet the change.
	 */
	roleChanged?(role: ChangedRole, workersTop: number): MassnickError | undefined;
	/**
	 * Sends the job's changes (not its undo's) many at a time: used instead of {@link apply} for them
	 * when set. See {@link BatchApply}.
	 */
	readonly applyBatch?: BatchApply | undefined;
	/**
	 * Set for an action that reaches users who are not members too (see {@link NonMemberReach}):
	 * a job limited to a file of ids then hands it, once its members are done, the ids no member
	 * had, each to its owner worker by the same rule, planned and journaled as members are, in
	 * calls of their own. Absent: those ids are counted as not members and sent nothing.
	 */
	readonly nonMembers?: NonMemberReach | undefined;
	/** Where the undo finds who to plan: `members` unless set (see {@link RestoreListing}). */
	readonly restoreListing?: RestoreListing | undefined;
	/**
	 * Its change takes the member out of the guild (a kick, a ban): a member it changed is listed
	 * no more, so a count of the live guild (/stats) finds only who is still to do, and says so.
	 */
	readonly removesMember?: boolean | undefined;
	/**
	 * What of a member the action sets, for standing rules (`keep`): two rules that set the same
	 * field would fight, so the second is refused, naming the first. `nick`; `role:<id>` (adding and
	 * removing one role fight); `timeout`; `membership` (a kick, a ban). Default: the action's type.
	 */
	readonly field?: string | undefined;
	/**
	 * A standing rule of it plans again a member whose data changes (GUILD_MEMBER_UPDATE), not only
	 * a joiner: a `/sanitize keep` cleans a member who renames themself. Its own change never
	 * triggers it again: the member then holds what it set, which its plan calls done.
	 */
	readonly followsChanges?: boolean | undefined;
	/** Which journal entries of a standing rule of it a restore can no longer use (see {@link EntryLife}). */
	readonly entryLife?: EntryLife | undefined;
	/** Sends one change; throws discord.js's errors as they come. */
	apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void>;
}
