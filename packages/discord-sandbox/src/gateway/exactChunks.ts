/**
 * Regroups chunks so every one has exactly `size` items except the last, which may be shorter.
 * An empty source yields nothing.
 *
 * discord.js's `GuildMemberManager#fetch()` resolves on the first GUILD_MEMBERS_CHUNK with fewer
 * than 1000 members, so a short chunk in the middle would silently truncate the fetch. Chunks that
 * already have the right size pass through without copying.
 */
export function* exactChunks<T>(source: Iterable<readonly T[]>, size: number): Generator<T[]> {
	let pending: T[] = [];
	for (const chunk of source) {
		if (pending.length === 0 && chunk.length === size) {
			yield chunk as T[];
			continue;
		}
		for (const item of chunk) {
			pending.push(item);
			if (pending.length === size) {
				yield pending;
				pending = [];
			}
		}
	}
	if (pending.length > 0) yield pending;
}
