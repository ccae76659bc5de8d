import type { GuildContext } from './GuildContext.js';
import { hasFinerFilters } from './filters/hasFinerFilters.js';
import type { MassAction } from './MassAction.js';
import type { MemberFilters } from './planner.js';

/** No filter at all: every member but our bots is in the job. */
function isUnfiltered(filters: MemberFilters): boolean {
	return filters.onlyRoleId === undefined && filters.excludeRoleId === undefined && !hasFinerFilters(filters);
}

/**
 * What a preview says a job will do, worked out from counts Discord keeps for us, without listing
 * a single member: the guild's member count and its role member counts. A member holding two roles
 * is counted under both, and who holds a filter role and another is not known, so most figures
 * are ranges; the job counts exactly as it runs.
 *
 * @see https://discord.com/developers/docs/resources/guild#get-guild-role-member-counts
 */

/** At least `atLeast` and at most `atMost`; exact when they are equal. */
export interface Range {
	readonly atLeast: number;
	readonly atMost: number;
}

/** The counts an estimate is made from. */
export interface GuildCounts {
	/** Members of the guild, our own bots included (`guild.memberCount`). */
	readonly members: number;
	/** Members holding each role, our bots included (`@everyone` is not listed). */
	readonly roleMembers: Readonly<Record<string, number>>;
	/** The roles of each of our bots in the guild, the boss and every worker: jobs never touch them. */
	readonly ourBots: ReadonlyArray<readonly string[]>;
}

/**
 * Members an action leaves alone for a reason of its own, besides the engine's (the owner, the
 * hierarchy, the requester's rank): counted apart in the preview, with that reason.
 */
export interface EstimatedGroup {
	/** Who they are, for people: `with Administrator`. */
	readonly who: string;
	/** Why they are left alone: `Discord never times them out`. */
	readonly why: string;
	readonly count: Range;
}

/** A job's figures before it runs; `undefined` where only the run can tell. */
export interface JobEstimate {
	/** Members the job is about: the role filters applied, our bots left out. */
	readonly inScope?: Range | undefined;
	/** Members it will change. */
	readonly change?: Range | undefined;
	/** Members who already have what it sets. */
	readonly done?: Range | undefined;
	/** Members it can't change: the owner, and members at or above the workers' highest role. */
	readonly cant?: Range | undefined;
	/**
	 * Members the workers reach but the requester does not (ranked at or above them): left alone.
	 * `undefined` where the requester's rank bounds nobody (the owner, the operator, a role job).
	 */
	readonly aboveRequester?: Range | undefined;
	/** Members the action itself leaves alone, group by group (see {@link EstimatedGroup}). */
	readonly leftAlone?: readonly EstimatedGroup[] | undefined;
}

/** On Discord, each token changes about one member a second in a guild: 10 per 10 s (docs/discord.md). */
export const CHANGES_PER_SECOND_PER_WORKER = 1;

/**
 * About how many changes one worker makes a second for `action`, or for its undo: its batched
 * pace where it sends its changes many at a time, else {@link CHANGES_PER_SECOND_PER_WORKER}.
 */
export function changesPerSecond(action: Pick<MassAction, 'applyBatch'>, undo: boolean): number {
	return undo || !action.applyBatch ? CHANGES_PER_SECOND_PER_WORKER : action.applyBatch.perSecond;
}

export const exactly = (count: number): Range => ({ atLeast: count, atMost: count });

/** Our bots' share of a role's count, taken off it: jobs never touch our bots. */
export function holdersOf(roleId: string, counts: GuildCounts, ctx: GuildContext): number {
	if (roleId === ctx.guildId) return others(counts);
	const bots = counts.ourBots.filter((roles) => roles.includes(roleId)).length;
	return Math.max(0, (counts.roleMembers[roleId] ?? 0) - bots);
}

export function others(counts: GuildCounts): number {
	return Math.max(0, counts.members - counts.ourBots.length);
}

/** Whether a filter is a real one: `@everyone` as `only` means everyone. */
export function onlyRole(filters: MemberFilters, ctx: GuildContext): string | undefined {
	return filters.onlyRoleId === undefined || filters.onlyRoleId === ctx.guildId ? undefined : filters.onlyRoleId;
}

/**
 * The members a job with `filters` is about. Discord counts nobody by kind, join date, account
 * age or name, so with any of those filters the range starts at 0; a list of user ids holds at
 * most its length of them (some may not be members).
 */
export function membersInScope(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters): Range {
	const byRoles = membersInRoleScope(counts, ctx, filters);
	if (!hasFinerFilters(filters)) return byRoles;
	const listed = filters.userIds?.length ?? Number.POSITIVE_INFINITY;
	return { atLeast: 0, atMost: Math.min(byRoles.atMost, listed) };
}

function membersInRoleScope(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters): Range {
	const only = onlyRole(filters, ctx);
	const base = only === undefined ? others(counts) : holdersOf(only, counts, ctx);
	const exclude = filters.excludeRoleId;
	if (exclude === undefined) return exactly(base);
	if (exclude === ctx.guildId || exclude === only) return exactly(0);
	const excluded = holdersOf(exclude, counts, ctx);
	const atLeast = Math.max(0, base - excluded);
	// Without an `only` role every holder of the excluded one was in scope; with it, who holds both is unknown.
	return only === undefined ? exactly(atLeast) : { atLeast, atMost: base };
}

/**
 * An action that edits members themselves (a nickname): the members holding a role at or above
 * the workers' highest, and the owner, can't be changed (Discord's hierarchy, as the planner
 * decides it), and those ranked at or above the requester are out of their reach. Who is already
 * done is found only as the job runs, so the change is "up to".
 */
export function estimateMemberEdit(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters): JobEstimate {
	const inScope = membersInScope(counts, ctx, filters);
	let cant: Range;
	if (ctx.workerHighestPosition <= 0) {
		cant = inScope;
	} else {
		const high = [...ctx.rolePositions]
			.filter(([id, position]) => id !== ctx.guildId && position >= ctx.workerHighestPosition)
			.map(([id]) => holdersOf(id, counts, ctx));
		const owner = ctx.botUserIds.has(ctx.ownerId) ? 0 : 1;
		const sum = high.reduce((total, count) => total + count, 0) + owner;
		const unfiltered = isUnfiltered(filters);
		// Unfiltered, the largest group (or the owner) can't for sure; filtered, none of them may be in scope.
		const atLeast = unfiltered ? Math.min(inScope.atLeast, Math.max(owner, ...high)) : 0;
		cant = { atLeast, atMost: Math.min(inScope.atMost, sum) };
	}
	const aboveRequester = estimateAboveRequester(counts, ctx, filters, inScope, cant);
	const sure = cant.atLeast + (aboveRequester?.atLeast ?? 0);
	return { inScope, cant, aboveRequester, change: { atLeast: 0, atMost: Math.max(0, inScope.atMost - sure) } };
}

/**
 * The members of a job that edits members themselves whom the workers reach but the requester
 * does not: holders of a role from the requester's highest up to below the workers' highest (every
 * member in scope, for a requester with no role). A member of that band may also hold a role above
 * the workers, and count under `cant` instead, hence the range.
 */
function estimateAboveRequester(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters, inScope: Range, cant: Range): Range | undefined {
	const rank = ctx.requester;
	if (rank?.kind !== 'member') return undefined;
	const reachable: Range = { atLeast: Math.max(0, inScope.atLeast - cant.atMost), atMost: Math.max(0, inScope.atMost - cant.atLeast) };
	if (rank.position >= ctx.workerHighestPosition) return exactly(0);
	if (rank.position <= 0) return reachable;
	const band = [...ctx.rolePositions]
		.filter(([id, position]) => id !== ctx.guildId && position >= rank.position && position < ctx.workerHighestPosition)
		.map(([id]) => holdersOf(id, counts, ctx));
	const sum = band.reduce((total, count) => total + count, 0);
	const unfiltered = isUnfiltered(filters);
	const atLeast = unfiltered ? Math.max(0, Math.max(0, ...band) - cant.atMost) : 0;
	return { atLeast: Math.min(atLeast, reachable.atMost), atMost: Math.min(reachable.atMost, sum) };
}

/**
 * `/restore`: the members the job's journal holds (or, unread, what its last run wrote in its
 * status line); a member who changed theirs since keeps it, so it is "up to". `undefined`: only
 * the run can tell.
 */
export function estimateRestore(changedByJob: number | undefined): JobEstimate {
	return changedByJob === undefined ? {} : { change: { atLeast: 0, atMost: changedByJob } };
}

/** How long `changes` take at the workers' combined rate, in ms; `null` with no worker. */
export function estimateDurationMs(changes: number, workers: number, perWorkerPerSecond = CHANGES_PER_SECOND_PER_WORKER): number | null {
	if (workers <= 0 || perWorkerPerSecond <= 0) return null;
	return (changes / (workers * perWorkerPerSecond)) * 1000;
}

/**
 * How long this process's part of `changes` takes: each worker changes its own members wherever
 * it runs, so a process holding `held` of the `count` workers changes about `held / count` of
 * them, with `active` of its workers connected; `null` with none. All processes run at once, so
 * this is the whole job's time too when the others keep the same pace.
 */
export function estimateShareMs(
	changes: number,
	fleet: { readonly active: number; readonly held: number; readonly count: number },
	perWorkerPerSecond = CHANGES_PER_SECOND_PER_WORKER,
): number | null {
	if (fleet.count <= 0) return null;
	return estimateDurationMs((changes * fleet.held) / fleet.count, fleet.active, perWorkerPerSecond);
}
