import type { MemberRecord } from '../../discord/MemberRecord.js';
import { compareSnowflakes } from '../filters/compareSnowflakes.js';

/** The most users one page holds: the listing's page. */
export const NON_MEMBER_PAGE_SIZE = 1000;

/** The guild's ban list in user id order, from the first ban after `after`, a page at a time. */
export type BanPages = (after: string) => AsyncIterable<readonly MemberRecord[]>;

/** A listed user id no member had: only the id is known (see `MemberRecord.nonMember`). */
function nonMemberRecord(id: string, banned: boolean): MemberRecord {
	return { id, username: '', globalName: null, nick: null, roles: [], bot: false, nonMember: true, ...(banned ? { banned: true } : {}) };
}

/**
 * The records of the users `ids` (sorted by value, as `ListedIdsTally.notMet` gives them), a
 * page at a time, each marked banned when the guild's ban list holds them: a banned user is done,
 * so a rerun, or a resume after a crash, sends nothing for them.
 *
 * The ban list comes in user id order, as `ids` do, so the two are walked side by side: the ban
 * list is read from just below the first id, and no further than the last, and nothing is held
 * but the page being made.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#get-guild-bans}
 */
export async function* nonMemberPages(ids: readonly string[], bans: BanPages): AsyncGenerator<MemberRecord[], void, undefined> {
	if (ids.length === 0) return;
	let next = 0;
	let page: MemberRecord[] = [];
	const add = (banned: boolean): void => {
		page.push(nonMemberRecord(ids[next++]!, banned));
	};
	for await (const banPage of bans(String(BigInt(ids[0]!) - 1n))) {
		for (const ban of banPage) {
			while (next < ids.length && compareSnowflakes(ids[next]!, ban.id) < 0) add(false);
			if (next < ids.length && compareSnowflakes(ids[next]!, ban.id) === 0) add(true);
			if (next === ids.length) break;
		}
		while (page.length >= NON_MEMBER_PAGE_SIZE) {
			yield page.slice(0, NON_MEMBER_PAGE_SIZE);
			page = page.slice(NON_MEMBER_PAGE_SIZE);
		}
		// Past the last id: the rest of the ban list is read no further.
		if (next === ids.length) break;
	}
	// The ban list holds none of the rest.
	for (;;) {
		while (next < ids.length && page.length < NON_MEMBER_PAGE_SIZE) add(false);
		if (page.length === 0) return;
		yield page;
		page = [];
	}
}
