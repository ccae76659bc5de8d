import type { MemberRecord } from '../../discord/MemberRecord.js';
import { type ActionWords, DONE, type GuildContext, outOfReach, type Plan, type SlotValue } from '../../jobs/index.js';
import { holdsNickname, NicknameEditAction, expandTemplate, isExpansionOf, type Template, templateUses } from '../shared/nicknameEdits/index.js';

/** The action's name in journals. */
export const NICKNAME = 'nickname';

/**
 * Sets every member's nickname from a template (`/massnick`). The done marker is the nickname
 * itself: a member whose nickname is already the template's expansion is skipped.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export class NicknameAction extends NicknameEditAction {
	readonly type = NICKNAME;
	readonly target: string;
	readonly words: ActionWords;

	constructor(readonly template: Template) {
		super();
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

	/** A rerun after a member changed their display name set a newer expansion: still the job's. */
	stillSet(member: MemberRecord): boolean {
		return member.nick !== null && isExpansionOf(this.template, member, member.nick);
	}
}
