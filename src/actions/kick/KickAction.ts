import { PermissionFlagsBits, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import {
	type ActionWords,
	type ChangeRequest,
	type ChangeTarget,
	type GuildContext,
	type MassAction,
	outOfReach,
	type Plan,
	type SlotValue,
} from '../../jobs/index.js';
import { type KickRequest, kickTarget } from './kickTarget.js';

/** The action's name in journals. */
export const KICK = 'kick';

/** What the preview, the status and `/restore` say of every kick. */
export const KICK_IRREVERSIBLE = 'A kick cannot be undone: kicked members must be invited back';

/**
 * Removes every member the job is about from the server (`/masskick`), with Remove Guild Member
 * and Kick Members: a raid's accounts, aimed by the filters. A member already gone is not listed,
 * so a rerun after a crash kicks only who is left. The owner, members at or above the workers and
 * members at or above the requester are out of reach as for every action that acts on members
 * themselves ({@link outOfReach}).
 *
 * The value journaled for a member is their username before the kick and `null` after (gone):
 * the journal is the list of who was kicked. Discord has no undo for a kick, so `/restore`
 * answers with that list instead ({@link irreversible}).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-member}
 */
export class KickAction implements MassAction {
	readonly type = KICK;
	/** A kick and a ban both end a membership. */
	readonly field = 'membership';
	readonly target: string;
	readonly permission = PermissionFlagsBits.KickMembers;
	readonly irreversible = KICK_IRREVERSIBLE;
	readonly removesMember = true;
	readonly reason: string | undefined;
	readonly words: ActionWords = {
		doing: 'Kicking members',
		undoing: 'Kicks cannot be undone',
		changed: 'kicked',
		holds: 'been kicked',
	};

	constructor(readonly request: KickRequest) {
		this.target = kickTarget(request);
		this.reason = request.reason;
	}

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: member.username, to: null };
	}

	/** A member listed is still in the server: they hold every value but `null` (gone). */
	holds(_member: MemberRecord, value: SlotValue): boolean {
		return value !== null;
	}

	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined {
		return outOfReach(member, ctx);
	}

	async apply(target: ChangeTarget, memberId: string, _to: SlotValue, request: ChangeRequest): Promise<void> {
		await target.rest.delete(Routes.guildMember(target.guildId, memberId), { reason: request.reason, signal: request.signal });
	}
}
