import { PermissionFlagsBits, Routes } from 'discord.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { type GuildContext, outOfReach } from '../../jobs/GuildContext.js';
import type { ActionWords, ChangeRequest, ChangeTarget, MassAction } from '../../jobs/MassAction.js';
import { DONE, type Plan, type SlotValue } from '../../jobs/Plan.js';
import { expandTemplate, isExpansionOf, type Template, templateUses } from './template.js';

/** The action's name in journals. */
export const NICKNAME = 'nickname';

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
 * Sets every member's nickname from a template (`/massnick`). The done marker is the nickname
 * itself: a member whose nickname is already the template's expansion is skipped.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export class NicknameAction implements MassAction {
	readonly type = NICKNAME;
	readonly target: string;
	readonly permission = PermissionFlagsBits.ManageNicknames;
	readonly words: ActionWords;

	constructor(readonly template: Template) {
		this.target = template.source;
		this.words = {
			doing: `Renaming to “${template.source}”`,
			undoing: `Restoring the nicknames from before “${template.source}”`,
			changed: 'renamed',
			holds: `the nickname “${template.source}”`,
		};
	}

	/**
	 * @param original The member's nickname before this journal's first run (`null`: none). Given,
	 * `{nick}` expands from it, so a rerun of `🎃 {nick}` gives `🎃 bob` again rather than
	 * `🎃 🎃 bob`. Not given, a nickname that is already an expansion of the template counts as done.
	 */
	plan(member: MemberRecord, ctx: GuildContext, original?: SlotValue): Plan {
		const journaled = original !== undefined;
		const to = expandTemplate(this.template, journaled ? { ...member, nick: original } : member);
		// Every placeholder expanded to blanks; sending '' would clear the nickname.
		if (to === '') return { action: 'skip', reason: 'empty-name' };
		if (holdsNickname(member, to)) return DONE;
		if (!journaled && member.nick !== null && templateUses(this.template, 'nick') && isExpansionOf(this.template, member, member.nick)) return DONE;
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: member.nick, to };
	}

	holds(member: MemberRecord, value: SlotValue): boolean {
		return holdsNickname(member, value);
	}

	/** A rerun after a member changed their display name set a newer expansion: still the job's. */
	stillSet(member: MemberRecord): boolean {
		return member.nick !== null && isExpansionOf(this.template, member, member.nick);
	}

	outOfReach(member: MemberRecord, ctx: GuildContext): string | undefined {
		return outOfReach(member, ctx);
	}

	apply(target: ChangeTarget, memberId: string, to: SlotValue, request: ChangeRequest): Promise<void> {
		return setNickname(target, memberId, to, request);
	}
}
