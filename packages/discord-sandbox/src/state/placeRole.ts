import type { APIRole } from 'discord-api-types/v10';

/**
 * Puts `role` at `position` in the guild's role list (sorted by position, `@everyone` first at
 * 0) and renumbers the others so positions stay 1, 2, 3... as Discord keeps them: the roles
 * from `position` up move one higher. A role not yet in the list is inserted. `position` is
 * clamped to 1..top; `@everyone` never moves. Returns the other roles whose position changed.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-role-positions}
 */
export function placeRole(roles: APIRole[], role: APIRole, position: number): APIRole[] {
	const others = roles.filter((existing) => existing.id !== role.id && existing.position !== 0);
	const everyone = roles.find((existing) => existing.position === 0 && existing.id !== role.id);
	const at = Math.min(Math.max(1, Math.floor(position)), others.length + 1);
	const ordered = [...others.slice(0, at - 1), role, ...others.slice(at - 1)];
	const moved: APIRole[] = [];
	ordered.forEach((entry, index) => {
		if (entry !== role && entry.position !== index + 1) moved.push(entry);
		entry.position = index + 1;
	});
	roles.splice(0, roles.length, ...(everyone ? [everyone] : []), ...ordered);
	return moved;
}
