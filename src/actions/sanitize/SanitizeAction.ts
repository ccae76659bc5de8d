import type { MemberRecord } from '../../discord/MemberRecord.js';
import { type ActionWords, DONE, type GuildContext, outOfReach, type Plan } from '../../jobs/index.js';
import { holdsNickname, NicknameEditAction, expandTemplate, type Template } from '../shared/nicknameEdits/index.js';
import { cleanName } from './cleanName.js';

/** The action's name in journals. */
export const SANITIZE = 'sanitize';

/** The shown name needs no change. */
const CLEAN = Symbol('clean');

/**
 * Cleans every member's shown name (`/sanitize`): the nickname, else the display name, else the
 * username, without the characters that hoist it to the top of the member list and with its
 * decorated and look-alike letters made plain (see {@link cleanName}); when nothing readable is
 * left, the fallback template (`{username}` by default). The done marker is the shown name
 * itself: a member whose name is already clean is skipped, so a rerun changes nothing, and the
 * journal keeps every original for `/restore`.
 *
 * Discord keeps no nickname equal to the username: a member whose cleaned name would be their
 * username gets their nickname cleared when what shows then (their display name) is clean, and
 * is otherwise left alone with the reason `only-username-left` (a fallback other than
 * `{username}`, such as `Member {id}`, reaches them).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export class SanitizeAction extends NicknameEditAction {
	readonly type = SANITIZE;
	readonly target: string;
	readonly words: ActionWords = {
		doing: 'Cleaning names',
		undoing: 'Restoring the names from before cleaning',
		changed: 'cleaned',
		holds: 'a clean name',
	};

	constructor(readonly fallback: Template) {
		super();
		this.target = fallback.source;
	}

	plan(member: MemberRecord, ctx: GuildContext): Plan {
		const to = this.#cleanNick(member);
		if (to === CLEAN) return DONE;
		if (to === undefined) return { action: 'skip', reason: 'only-username-left' };
		if (holdsNickname(member, to)) return DONE;
		const cant = outOfReach(member, ctx);
		if (cant !== undefined) return { action: 'cant', reason: cant };
		return { action: 'change', from: member.nick, to };
	}

	/**
	 * The nickname that makes the member's shown name clean: {@link CLEAN} when it is already,
	 * `null` to clear the nickname (what shows then is clean), `undefined` when only the username
	 * would do and Discord would not keep it.
	 */
	#cleanNick(member: MemberRecord): string | null | undefined | typeof CLEAN {
		const display = nonBlank(member.globalName);
		const shown = nonBlank(member.nick) ?? display ?? member.username;
		const cleaned = this.#clean(shown, member);
		if (cleaned === shown) return CLEAN;
		if (cleaned !== member.username) return cleaned;
		// A nickname equal to the username is not kept: without one, the display name shows.
		if (display === null || this.#clean(display, member) === display) return member.nick === null ? CLEAN : null;
		const fromDisplay = this.#clean(display, member);
		return fromDisplay === member.username ? undefined : fromDisplay;
	}

	#clean(name: string, member: MemberRecord): string {
		return cleanName(name, { maxLength: this.fallback.maxLength }) ?? expandTemplate(this.fallback, member);
	}
}

function nonBlank(text: string | null): string | null {
	return text === null || text.trim() === '' ? null : text;
}
