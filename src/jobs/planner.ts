import { expandTemplate, isExpansionOf, type Template, templateUses } from './template.js';

/**
 * The pure decision for one member: rename, already done, can't rename, or leave alone.
 *
 * This is where idempotency lives. The done marker is the member's nickname in Discord, so a
 * rerun plans nothing for members already done, and a crash costs nothing but the rerun. Every
 * "can't" is decided from the guild's roles, without sending a request that would only earn a
 * 403 (and count towards Discord's invalid-request limit).
 *
 * Order of checks, the same for every plan function:
 * 1. `skip`: members this job is not about (our own bots, the role filters, changed since);
 * 2. `done`: the member already has what the job wants, even one we could not rename;
 * 3. `cant`: the owner, or a member at or above the workers' highest role;
 * 4. `rename`.
 */

/** What the planner needs of a member: a compact copy of Discord's guild member object. */
export interface MemberRecord {
	readonly id: string;
	readonly username: string;
	/** The user's display name (`global_name`). */
	readonly globalName: string | null;
	/** The guild nickname; `null` when none (Discord shows the display name). */
	readonly nick: string | null;
	readonly roles: readonly string[];
	readonly bot: boolean;
}

/** The guild as the planner sees it; built once per job. */
export interface GuildContext {
	readonly guildId: string;
	readonly ownerId: string;
	/** Role id → position. `@everyone` has the guild's id and position 0. */
	readonly rolePositions: ReadonlyMap<string, number>;
	/** The boss and the workers: never renamed, whatever the job. */
	readonly botUserIds: ReadonlySet<string>;
	/**
	 * The lowest of the workers' highest role positions. A worker can only rename members whose
	 * highest role is below its own; using the lowest keeps a member's plan the same whichever
	 * worker owns them.
	 */
	readonly workerHighestPosition: number;
}

export interface RenameJobSpec {
	readonly kind: 'rename';
	readonly template: Template;
	/** Only members with this role; the guild's id (`@everyone`) means everyone. */
	readonly roleId?: string | undefined;
	/** Not members with this role. */
	readonly excludeRoleId?: string | undefined;
	/** Leave bots that are not ours alone too. */
	readonly skipBots?: boolean | undefined;
}

export type SkipReason =
	/** The boss or a worker. */
	| 'own-bot'
	/** Another bot, with `skipBots`. */
	| 'bot'
	| 'not-in-role'
	| 'excluded-role'
	/** Every placeholder expanded to blanks; sending '' would clear the nickname. */
	| 'empty-name'
	/** Restore: the member chose another nickname since the job; theirs is kept. */
	| 'changed-since'
	/** Restore: the journal has no original for the member (they were not changed by the job). */
	| 'not-journaled';

export type CantReason = 'owner' | 'hierarchy';

/**
 * What to do with one member. `to: null` clears the nickname (Discord then shows the display
 * name); a rename job never plans `null`, a restore or a clear may.
 */
export type Plan =
	| { readonly action: 'rename'; readonly to: string | null }
	| { readonly action: 'done' }
	| { readonly action: 'cant'; readonly reason: CantReason }
	| { readonly action: 'skip'; readonly reason: SkipReason };

/** A rename job's plan: its renames always set a name. */
export type RenamePlan = Exclude<Plan, { action: 'rename' }> | { readonly action: 'rename'; readonly to: string };

/** One line of the journal: the nickname a member had, and the one the job set (`null`: none). */
export interface RestoreEntry {
	readonly id: string;
	readonly from: string | null;
	readonly to: string | null;
}

const DONE: Plan = Object.freeze({ action: 'done' });

/**
 * Plans one member of a rename job.
 *
 * @param original The member's nickname before this job, when the job's journal has it
 * (`null`: they had none). Given, `{nick}` expands from it, so a rerun of `🎃 {nick}` gives
 * `🎃 bob` again rather than `🎃 🎃 bob`. Not given, a nickname that is already an expansion of
 * the template counts as done (see {@link isExpansionOf}).
 */
export function planRename(member: MemberRecord, job: RenameJobSpec, ctx: GuildContext, original?: string | null): RenamePlan {
	if (ctx.botUserIds.has(member.id)) return { action: 'skip', reason: 'own-bot' };
	if (job.skipBots === true && member.bot) return { action: 'skip', reason: 'bot' };
	if (job.roleId !== undefined && !hasRole(member, job.roleId, ctx)) return { action: 'skip', reason: 'not-in-role' };
	if (job.excludeRoleId !== undefined && hasRole(member, job.excludeRoleId, ctx)) return { action: 'skip', reason: 'excluded-role' };

	const journaled = original !== undefined;
	const to = expandTemplate(job.template, journaled ? { ...member, nick: original } : member);
	if (to === '') return { action: 'skip', reason: 'empty-name' };
	if (holds(member, to)) return DONE as RenamePlan;
	if (!journaled && member.nick !== null && templateUses(job.template, 'nick') && isExpansionOf(job.template, member, member.nick)) {
		return DONE as RenamePlan;
	}

	return cantRename(member, ctx) ?? { action: 'rename', to };
}

/**
 * Plans one member of a restore: back to `entry.from`, but only if they still have the name the
 * job set. A member who picked a new nickname since keeps it.
 */
export function planRestore(member: MemberRecord, entry: RestoreEntry, ctx: GuildContext): Plan {
	if (ctx.botUserIds.has(member.id)) return { action: 'skip', reason: 'own-bot' };
	if (holds(member, entry.from)) return DONE;
	if (!holds(member, entry.to)) return { action: 'skip', reason: 'changed-since' };
	return cantRename(member, ctx) ?? { action: 'rename', to: entry.from };
}

/**
 * Plans one member of a restore without a journal: clears the nickname where it is still what
 * `target` gives, and leaves every other nickname alone. The originals are lost this way; it is
 * the fallback when the journal is gone.
 */
export function planClear(member: MemberRecord, target: Template, ctx: GuildContext): Plan {
	if (ctx.botUserIds.has(member.id)) return { action: 'skip', reason: 'own-bot' };
	if (member.nick === null) return DONE;
	if (!isExpansionOf(target, member, member.nick)) return { action: 'skip', reason: 'changed-since' };
	return cantRename(member, ctx) ?? { action: 'rename', to: null };
}

/** The member's highest role position; 0 (`@everyone`) with no roles, or only unknown ones. */
export function highestPosition(member: MemberRecord, ctx: GuildContext): number {
	let highest = 0;
	for (const role of member.roles) highest = Math.max(highest, ctx.rolePositions.get(role) ?? 0);
	return highest;
}

/**
 * Why the workers cannot rename `member`, or `undefined`. Discord refuses the owner always, and
 * anyone whose highest role is not strictly below the bot's (403, 50013).
 *
 * @see https://discord.com/developers/docs/topics/permissions#permission-hierarchy
 */
function cantRename(member: MemberRecord, ctx: GuildContext): Extract<Plan, { action: 'cant' }> | undefined {
	if (member.id === ctx.ownerId) return { action: 'cant', reason: 'owner' };
	if (highestPosition(member, ctx) >= ctx.workerHighestPosition) return { action: 'cant', reason: 'hierarchy' };
	return undefined;
}

/** `@everyone` is never in a member's role list, but every member has it. */
function hasRole(member: MemberRecord, roleId: string, ctx: GuildContext): boolean {
	return roleId === ctx.guildId || member.roles.includes(roleId);
}

/**
 * Whether the member's nickname in Discord is `name` (`null`: no nickname). Discord stores a
 * nickname equal to the username as no nickname, so `null` holds the username too.
 */
function holds(member: MemberRecord, name: string | null): boolean {
	return member.nick === name || (member.nick === null && name === member.username);
}
