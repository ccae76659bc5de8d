import { PermissionFlagsBits, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import type { GuildContext } from '../../jobs/GuildContext.js';
import type { ActionWords, ChangeRequest, ChangeTarget, MassAction } from '../../jobs/MassAction.js';
import { DONE, type Plan, type SlotValue } from '../../jobs/Plan.js';
import { checkRoleWithinRank } from './checkRoleWithinRank.js';

/** Give the role to every member, or take it from every member. */
export type RoleMode = 'add' | 'remove';

/** The action's names in journals. */
export const ROLE_ACTION_TYPES: Readonly<Record<RoleMode, string>> = Object.freeze({ add: 'role-add', remove: 'role-remove' });

/** What the action needs of the role: its id and, for people, its name. */
export interface RoleRef {
	readonly id: string;
	readonly name: string;
}

/**
 * Gives every member a role, or takes it from every member (`/massrole add|remove`), with Add or
 * Remove Guild Member Role. The done marker is the member's roles: a member who already has (or
 * lacks) it is skipped. The member's value is the role's id while they have it, `null` when not,
 * so a restore is the engine's: back to the journaled value where the job's value still holds.
 *
 * Which roles may be handed out at all (below the workers, not managed, not `@everyone`) is
 * checked once before the job, by {@link checkAssignable}, and the role against the requester's
 * rank before the job and its undo (see {@link checkRoleWithinRank}); no member is out of reach
 * after that: Discord checks the role against whoever hands it out, not against the member.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#add-guild-member-role}
 */
export class RoleAction implements MassAction {
	readonly type: string;
	readonly target: string;
	readonly permission = PermissionFlagsBits.ManageRoles;
	readonly words: ActionWords;

	constructor(
		readonly role: RoleRef,
		readonly mode: RoleMode,
	) {
		this.type = ROLE_ACTION_TYPES[mode];
		this.target = role.id;
		const name = `@${role.name}`;
		this.words =
			mode === 'add'
				? { doing: `Adding ${name}`, undoing: `Taking ${name} back from the members who got it`, changed: `given ${name}`, holds: name }
				: { doing: `Removing ${name}`, undoing: `Giving ${name} back to the members who lost it`, changed: `lost ${name}`, holds: `no ${name}` };
	}

	plan(member: MemberRecord): Plan {
		const has = member.roles.includes(this.role.id);
		if (has === (this.mode === 'add')) return DONE;
		return { action: 'change', from: has ? this.role.id : null, to: has ? null : this.role.id };
	}

	holds(member: MemberRecord, value: SlotValue): boolean {
		return member.roles.includes(this.role.id) === (value !== null);
	}

	outOfReach(): undefined {
		return undefined;
	}

	checkRequester(ctx: GuildContext, undo: boolean): void {
		checkRoleWithinRank(this.role, ctx, undo);
	}

	async apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		const route = Routes.guildMemberRole(target.guildId, memberId, this.role.id);
		const options = { reason: request.reason, signal: request.signal };
		if (to === null) await target.rest.delete(route, options);
		else await target.rest.put(route, options);
	}
}
