import type { MemberRecord } from '../../discord/MemberRecord.js';
import { type ActionWords, DONE, type GuildContext, outOfReach, type Plan } from '../../jobs/index.js';
import { NicknameEditAction, isExpansionOf, type Template } from '../shared/nicknameEdits/index.js';

/**
 * `/restore name:` when no journal is left: clears the nickname wherever it is still what the
 * template gives, and leaves every other nickname alone. The originals are lost this way; it is
 * the fallback when the journal is gone, so it writes no journal of its own.
 */
export class ClearNamedNicknameAction extends NicknameEditAction {
	readonly type = 'nickname-clear';
	readonly target: string;
	readonly words: ActionWords;

	constructor(readonly template: Template) {
		super();
		this.target = template.source;
		this.words = {
			doing: `Clearing the nickname “${template.source}”`,
			undoing: `Clearing the nickname “${template.source}”`,
			changed: 'cleared',
			holds: 'no nickname',
		};
	}

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		if (member.nick === null) return DONE;
		if (!isExpansionOf(this.template, member, member.nick)) return { action: 'skip', reason: 'changed-since' };
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: member.nick, to: null };
	}
}
