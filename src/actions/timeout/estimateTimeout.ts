import {
	estimateMemberEdit,
	exactly,
	type GuildContext,
	type GuildCounts,
	holdersOf,
	type JobEstimate,
	type MemberFilters,
	type Range,
} from '../../jobs/index.js';

/**
 * `/masstimeout`: who a member edit reaches (`estimateMemberEdit`), with the holders of
 * Administrator among them counted apart: Discord never times them out. Who is timed out
 * already is found only as the job runs, so the change is "up to".
 */
export function estimateTimeout(counts: GuildCounts, ctx: GuildContext, filters: MemberFilters): JobEstimate {
	const edit = estimateMemberEdit(counts, ctx, filters);
	const admins = administratorsInReach(counts, ctx, edit.change ?? exactly(0));
	if (admins === undefined) return edit;
	const change = ctx.administratorRoleIds.has(ctx.guildId) ? exactly(0) : edit.change;
	return { ...edit, change, leftAlone: [{ who: 'with Administrator', why: 'Discord never times them out: left alone', count: admins }] };
}

/**
 * The members the job reaches who hold a role granting Administrator (every one of them when
 * `@everyone` grants it): holders of such roles below the workers and the requester, at most
 * those the job could change. A holder may rank higher through another role, hence "up to".
 */
function administratorsInReach(counts: GuildCounts, ctx: GuildContext, reachable: Range): Range | undefined {
	if (ctx.administratorRoleIds.size === 0) return undefined;
	if (ctx.administratorRoleIds.has(ctx.guildId)) return reachable;
	const bound = Math.min(ctx.workerHighestPosition, ctx.requester?.kind === 'member' ? ctx.requester.position : Number.POSITIVE_INFINITY);
	let holders = 0;
	for (const id of ctx.administratorRoleIds) {
		if ((ctx.rolePositions.get(id) ?? Number.POSITIVE_INFINITY) < bound) holders += holdersOf(id, counts, ctx);
	}
	return { atLeast: 0, atMost: Math.min(holders, reachable.atMost) };
}
