import type { MemberRecord } from '../../discord/MemberRecord.js';
import { type ActionWords, DONE, type GuildContext, outOfReach, type Plan } from '../../jobs/index.js';
import { NicknameEditAction } from '../shared/nicknameEdits/index.js';

/** The action's name in journals. */
export const CLEAR_NICKNAMES = 'nickname-reset';

/**
 * Removes the nickname of every member the job is about (`/clearnicks`), so each shows their
 * display name again: NotSoBot's revert, journaled and undoable like any job. The done marker is
 * having no nickname; `/restore` gives back each nickname it removed, unless the member set a
 * new one since.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export class ClearEveryNicknameAction extends NicknameEditAction {
	readonly type = CLEAR_NICKNAMES;
	/** One target: every run clears the same thing, so a rerun continues the same journal. */
	readonly target = 'every nickname';
	readonly words: ActionWords = {
		doing: 'Removing nicknames',
		undoing: 'Giving back the nicknames removed',
		changed: 'cleared',
		holds: 'no nickname',
	};

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		if (member.nick === null) return DONE;
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: member.nick, to: null };
	}
}
