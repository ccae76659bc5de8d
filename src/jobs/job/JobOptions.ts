import type { Logger } from 'pino';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import type { Fleet } from '../../workers/Fleet.js';
import type { ListingClient } from '../listMembers.js';
import type { Listing } from '../listPages.js';
import type { MassAction } from '../MassAction.js';
import type { Plan } from '../Plan.js';
import type { MemberFilters } from '../planner.js';
import type { PendingChange } from '../runSlice.js';

/** `apply`: the action's change (or a count, as a dry run); `restore`: its undo from the journal. */
export type JobMode = 'apply' | 'restore';

/**
 * A standing rule: after its sweep the job goes on applying its action to each member who joins
 * (and who changes, for an action that `followsChanges`) until it is cancelled or `until` comes.
 */
export interface KeepOptions {
	/** When the rule ends by itself (Unix ms); never when absent. */
	readonly until?: number | undefined;
	/**
	 * A rule resumed after a restart: its sweep only catches up with who joined or changed while it
	 * was down, so it runs at low priority: it takes no sweep's place (a job can start beside it),
	 * and its listing waits while a sweep runs (see `JobOptions.yieldListing`). Not kept in the record.
	 */
	readonly catchUp?: boolean | undefined;
}

/** What a `Job` is built from: the action, who asked, the fleet, the listing and the pacing. */
export interface JobOptions {
	id: string;
	/** What the job changes, and how: the engine asks it to apply each change. */
	action: MassAction;
	mode: JobMode;
	dryRun: boolean;
	startedBy: { id: string; tag: string };
	/**
	 * The workers of this process. The job takes only the members its workers own; those of
	 * workers held by other processes are counted as `elsewhere` and left to them.
	 */
	fleet: Fleet;
	/**
	 * Plan every member of the guild, whichever process holds its worker: for a count (a dry run
	 * sends nothing, so it needs no worker). Default false.
	 */
	wholeGuild?: boolean | undefined;
	/** The bots that page through the list: those whose application has the members intent, for members. */
	listers: readonly ListingClient[];
	/** Who the job plans, page by page: the guild's members (`listMembers`) unless set. */
	list?: Listing | undefined;
	/**
	 * For an action that reaches users who are not members (`MassAction.nonMembers`): the bots that
	 * read which of them are done, from the guild's ban list (`listBans` unless `list` is set). The
	 * workers, who hold Ban Members for such an action; the job's `listers` without it.
	 */
	doneListing?: { readonly listers: readonly ListingClient[]; readonly list?: Listing | undefined } | undefined;
	guildId: string;
	/** A standing rule (see {@link KeepOptions}); a job applying its action only, never a dry run. */
	keep?: KeepOptions | undefined;
	/**
	 * For a listing at low priority (a rule's catch-up): waits, between pages, until it may list on
	 * (no sweep runs). Joiners are then taken at once rather than left to the listing, which may wait
	 * for hours (see `JoinerReconciler`).
	 */
	yieldListing?: ((signal: AbortSignal) => Promise<void>) | undefined;
	/** Who the job is about besides its action (for a count of it later); the plan applies them. */
	filters?: MemberFilters | undefined;
	/** Plans one member. Pure; see planner.ts. */
	plan: (member: MemberRecord) => Plan;
	/** Durably records changes before they go out (the journal); skipped on a dry run. */
	beforeChange?: ((changes: PendingChange[]) => Promise<void>) | undefined;
	/** Audit-log reason sent with every change. */
	reason: string;
	maxInFlight: number;
	retry: { attempts: number; baseDelayMs: number; maxDelayMs: number };
	logger: Logger;
	now?: () => number;
}
