import { DiscordAPIError, PermissionFlagsBits, RESTJSONErrorCodes, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import {
	type EntryLife,
	type ActionWords,
	type ChangedRole,
	type ChangeRequest,
	type ChangeTarget,
	DONE,
	type GuildContext,
	type MassAction,
	type Plan,
	type SlotValue,
} from '../../jobs/index.js';
import { ErrorCodes, JobError } from '../../errors.js';
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
	/** Adding and removing one role fight; a role taken by hand is not given again (joiners only). */
	readonly field: string;
	/**
	 * A member who leaves loses their roles (one who joins again has none Discord gives back, which
	 * is why bots keep "role persist" lists): their entry undoes nothing.
	 */
	readonly entryLife: EntryLife = { lostOnLeave: true };

	constructor(
		readonly role: RoleRef,
		readonly mode: RoleMode,
	) {
		this.type = ROLE_ACTION_TYPES[mode];
		this.target = role.id;
		this.field = `role:${role.id}`;
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

	/**
	 * Discord checks the role, not the member: Unknown Role (10011) or Missing Permissions (50013)
	 * on one member is the same answer for every other, so the first ends the job.
	 */
	endsJob(error: unknown): JobError | undefined {
		if (!(error instanceof DiscordAPIError)) return undefined;
		if (error.code === RESTJSONErrorCodes.UnknownRole) return this.#deleted();
		if (error.code === RESTJSONErrorCodes.MissingPermissions) return this.#outOfReach();
		return undefined;
	}

	/** The job's role deleted, or moved to or above the workers' highest role, stops the job before its requests meet it. */
	roleChanged(role: ChangedRole, workersTop: number): JobError | undefined {
		if (role.id !== this.role.id) return undefined;
		if (role.deleted) return this.#deleted();
		return role.position >= workersTop ? this.#outOfReach() : undefined;
	}

	#deleted(): JobError {
		return new JobError(
			ErrorCodes.RoleDeleted,
			`The role @${this.role.name} was deleted while the job ran, so it stopped: no member can be given or lose a role that is gone. Nothing else needs doing.`,
			{ context: { role: this.role.id } },
		);
	}

	#outOfReach(): JobError {
		return new JobError(
			ErrorCodes.RoleNotAssignable,
			`The role @${this.role.name} is now at or above the workers' highest role (or they lost Manage Roles), so the job stopped: Discord refuses every change of it. Move the workers' role above @${this.role.name} (Server Settings → Roles), then run the same command again: it continues where it stopped.`,
			{ context: { role: this.role.id } },
		);
	}

	async apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		const route = Routes.guildMemberRole(target.guildId, memberId, this.role.id);
		const options = { reason: request.reason, signal: request.signal };
		if (to === null) await target.rest.delete(route, options);
		else await target.rest.put(route, options);
	}
}
