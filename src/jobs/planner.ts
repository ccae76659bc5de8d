import type { MemberRecord } from '../discord/MemberRecord.js';
import { compileMemberFilter, type MemberFilter } from './filters/compileMemberFilter.js';
import { hasFinerFilters } from './filters/hasFinerFilters.js';
import type { MemberFilterSpec } from './filters/MemberFilterSpec.js';
import { type GuildContext, hasRole } from './GuildContext.js';
import type { MassAction } from './MassAction.js';
import { DONE, type Plan, type RestoreEntry, type SlotValue } from './Plan.js';

/**
 * The pure decision for one member, for every action: change, already done, can't, or leave alone.
 *
 * This is where idempotency lives. The done marker is the member's state in Discord, so a rerun
 * plans nothing for members already done, and a crash costs nothing but the rerun. Every "can't"
 * is decided from the guild's roles, without sending a request that would only earn a 403 (and
 * count towards Discord's invalid-request limit).
 *
 * Order of checks, the same for every plan:
 * 1. `skip`: members this job is not about (our own bots, the role and finer filters, changed since);
 * 2. `done`: the member already has what the job wants, even one we could not change;
 * 3. `cant`: members the workers can never change for this action;
 * 4. `change`.
 */

/**
 * Who a job is about, besides what its action decides: the role filters, and the finer aim of
 * {@link MemberFilterSpec} (kind of member, no role, join date, account age, name pattern).
 */
export interface MemberFilters extends MemberFilterSpec {
	/** Only members with this role; the guild's id (`@everyone`) means everyone. */
	readonly onlyRoleId?: string | undefined;
	/** Not members with this role. */
	readonly excludeRoleId?: string | undefined;
}

/**
 * The finer filters of each filters object, compiled the first time it is planned with: a job
 * plans every member with its one filters object, so a pattern is compiled once per job and a
 * member costs a few comparisons.
 */
const compiled = new WeakMap<MemberFilters, MemberFilter>();

function finerFilter(filters: MemberFilters, ctx: GuildContext): MemberFilter | undefined {
	if (!hasFinerFilters(filters)) return undefined;
	let filter = compiled.get(filters);
	if (!filter) {
		filter = compileMemberFilter(filters, ctx);
		compiled.set(filters, filter);
	}
	return filter;
}

/** Plans one member of a job: the engine's filters first, then the action. */
export function planMember(member: MemberRecord, action: MassAction, filters: MemberFilters, ctx: GuildContext, original?: SlotValue): Plan {
	if (ctx.botUserIds.has(member.id)) return { action: 'skip', reason: 'own-bot' };
	if (filters.onlyRoleId !== undefined && !hasRole(member, filters.onlyRoleId, ctx)) return { action: 'skip', reason: 'not-in-role' };
	if (filters.excludeRoleId !== undefined && hasRole(member, filters.excludeRoleId, ctx)) return { action: 'skip', reason: 'excluded-role' };
	const outside = finerFilter(filters, ctx)?.(member);
	if (outside !== undefined) return { action: 'skip', reason: outside };
	return action.plan(member, ctx, original);
}

/**
 * Plans one member of a restore: back to `entry.from`, but only if they still have what the job
 * set. A member whose value changed since (a role taken away by a moderator)
 * keeps it. `entry` is `undefined` for members the job did not change.
 */
export function planRestore(member: MemberRecord, entry: RestoreEntry | undefined, action: MassAction, ctx: GuildContext): Plan {
	if (ctx.botUserIds.has(member.id)) return { action: 'skip', reason: 'own-bot' };
	if (!entry) return { action: 'skip', reason: 'not-journaled' };
	if (action.holds(member, entry.from)) return DONE;
	const stillSet = action.holds(member, entry.to) || action.stillSet?.(member, entry.to) === true;
	if (!stillSet) return { action: 'skip', reason: 'changed-since' };
	const cant = action.outOfReach(member, ctx);
	if (cant !== undefined) return { action: 'cant', reason: cant };
	return { action: 'change', from: entry.to, to: entry.from };
}
