import type { GuildSnapshot } from './GuildSnapshot.js';

/**
 * The users outside the raid a cleanup touched: a member then who is gone now, or banned, or
 * whose timeout changed; someone banned then who is not now; or anyone a request of the subject
 * named (`writes`: the target of each ban, unban, member edit or kick it sent). Empty when the
 * cleanup kept to the raid.
 */
export function touchedOutsideRaid(before: GuildSnapshot, after: GuildSnapshot, raid: ReadonlySet<string>, writes: Iterable<string>): string[] {
	const touched = new Set<string>();
	for (const [id, timeout] of before.members) {
		if (raid.has(id)) continue;
		if (!after.members.has(id) || after.banned.has(id) || after.members.get(id) !== timeout) touched.add(id);
	}
	for (const id of before.banned) if (!raid.has(id) && !after.banned.has(id)) touched.add(id);
	for (const id of after.banned) if (!raid.has(id) && !before.banned.has(id)) touched.add(id);
	for (const id of writes) if (!raid.has(id)) touched.add(id);
	return [...touched].sort();
}
