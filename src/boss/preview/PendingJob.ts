import type { MemberRecord } from '../../discord/MemberRecord.js';
import type {
	GuildContext,
	GuildCounts,
	Job,
	JobEstimate,
	KeepOptions,
	MassAction,
	MemberFilters,
	Plan,
	Range,
	Requester,
	RequesterRank,
	SlotValue,
} from '../../jobs/index.js';

/** A job that started, and what to tell the member who started it. */
export interface StartedJob {
	readonly job: Job;
	/** `Started: **Renaming to “…”** for every member, with 10 workers. …` */
	readonly text: string;
}

/**
 * A changing job a command asked for, before it runs: what its preview shows, and how it starts.
 * Each changing command builds one (`pendingApply`, `pendingRestore`); the preview and the
 * immediate start only ever use this, so they never ask which command it came from.
 */
export interface PendingJob {
	/** What runs, for people: `Renaming to “🎃 {display_name}”`, `Taking @Event back from …`. */
	readonly title: string;
	/** A standing rule (see `KeepOptions`): the preview says it goes on after its sweep. */
	readonly keep?: KeepOptions | undefined;
	/** Who it is about: `every member`, `members with @Staff except those with @Bots`. */
	readonly scope: string;
	/** For a restore: the job it undoes, who started it and when. */
	readonly undoes?: string | undefined;
	/** The action whose changes the sample shows (for a restore, the action it undoes). */
	readonly action: MassAction;
	/** The `{jobKind}` of the audit-log reason: the action's type, or `restore`. */
	readonly jobKind: string;
	/** Whether it undoes {@link action}'s job (a restore) rather than running it. */
	readonly undo: boolean;
	/** Who it is about besides its action: what an exact count of it counts. */
	readonly filters?: MemberFilters | undefined;
	/**
	 * Whether a job that changes `members` asks for that number to be typed before Start acts (the
	 * action module's `confirmByTypedCount`): such a job is always previewed, counted exactly, and
	 * its Start opens a modal (see `typedCount.ts`).
	 */
	readonly confirmByTypedCount?: ((members: Range) => boolean) | undefined;
	/** Why it asks, when its action's `irreversible` does not say it (the module's `typedCountWhy`, a ban). */
	readonly typedCountWhy?: string | undefined;
	/** For a job limited to a file of user ids: the ids, sorted; its sample is looked up among them. */
	readonly listedIds?: readonly string[] | undefined;
	/**
	 * The figures from Discord's counts, without listing anyone. Called after {@link planSample}, so
	 * it may use what planning the sample learned (a restore's count of its journal).
	 */
	estimate(counts: GuildCounts, ctx: GuildContext): JobEstimate;
	/** One planned change as the sample shows it (the action's module words it). */
	describeChange(member: MemberRecord, from: SlotValue, to: SlotValue, roleName: (id: string) => string): string;
	/** Plans `members` as the job itself will (the same planner); `ctx` bounded by the requester's rank. */
	planSample(members: readonly MemberRecord[], ctx: GuildContext): Promise<Plan[]>;
	/**
	 * Starts it (or its dry run) through the job manager, which admits it again, bounded by `rank`
	 * and `allowed`: the requester's, read again when they start it. `channelId`: where the command
	 * was run, kept beside the journal of a job a restart may resume.
	 */
	start(options: {
		dryRun: boolean;
		startedBy: Requester;
		rank: RequesterRank;
		allowed: (permission: bigint) => boolean;
		channelId?: string | undefined;
	}): Promise<StartedJob>;
}
