import type { APIRole } from 'discord.js';

/**
 * The member's highest role: the greatest `position`, the older role (smaller id) on a tie, as
 * discord.js's `Role.comparePositions` ranks them; `@everyone` when they hold no other.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function highestRole(roleIds: readonly string[], roles: readonly APIRole[], guildId: string): APIRole | undefined {
	const held = new Set(roleIds);
	let highest: APIRole | undefined;
	for (const role of roles) {
		if (role.id !== guildId && !held.has(role.id)) continue;
		if (!highest || compareRoles(role, highest) > 0) highest = role;
	}
	return highest;
}

/** Positive when `a` ranks above `b`. */
export function compareRoles(a: APIRole, b: APIRole): number {
	if (a.position !== b.position) return a.position - b.position;
	return BigInt(a.id) < BigInt(b.id) ? 1 : BigInt(a.id) > BigInt(b.id) ? -1 : 0;
}
