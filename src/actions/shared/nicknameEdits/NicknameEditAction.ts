import { PermissionFlagsBits, Routes } from 'discord.js';
import type { MemberRecord } from '../../../discord/MemberRecord.js';
import {
	type EntryLife,
	type ActionWords,
	type ChangeRequest,
	type ChangeTarget,
	type GuildContext,
	type MassAction,
	outOfReach,
	type Plan,
	type SlotValue,
} from '../../../jobs/index.js';

/**
 * Whether the member's nickname in Discord is `name` (`null`: no nickname). Discord stores a
 * nickname equal to the username as no nickname, so `null` holds the username too.
 */
export function holdsNickname(member: MemberRecord, name: SlotValue): boolean {
	return member.nick === name || (member.nick === null && name === member.username);
}

/** Modify Guild Member with `nick` (`null` clears it), by the worker that owns the member. */
export async function setNickname(target: ChangeTarget, memberId: string, nick: SlotValue, request: ChangeRequest): Promise<void> {
	await target.rest.patch(Routes.guildMember(target.guildId, memberId), { body: { nick }, reason: request.reason, signal: request.signal });
}

/**
 * What every action that sets nicknames shares (a template, a clear, a cleaned name): the value
 * is the nickname, the done marker is the nickname Discord holds, a change is one Modify Guild
 * Member with Manage Nicknames, and a member is out of reach as Discord's hierarchy and the
 * requester's rank say (`outOfReach`). Each action plans its own nickname.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export abstract class NicknameEditAction implements MassAction {
	abstract readonly type: string;
	abstract readonly target: string;
	abstract readonly words: ActionWords;
	readonly permission = PermissionFlagsBits.ManageNicknames;
	/** Every nickname action sets the one nickname: two nickname rules fight. */
	readonly field = 'nick';
	/** A member who renames themself is planned again: a rule keeps their nickname as it says. */
	readonly followsChanges = true;
	/** A member who leaves loses their nickname (one who joins again has none): their entry undoes nothing. */
	readonly entryLife: EntryLife = { lostOnLeave: true };

	abstract plan(member: MemberRecord, ctx: GuildContext, original?: SlotValue): Plan;

	holds(member: MemberRecord, value: SlotValue): boolean {
		return holdsNickname(member, value);
	}

	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined {
		return outOfReach(member, ctx);
	}

	apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		return setNickname(target, memberId, to, request);
	}
}
