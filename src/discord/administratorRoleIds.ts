import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';

/**
 * The roles that grant Administrator, `@everyone` (the guild's id) included when it does: a
 * member holding one has every permission, and Discord refuses to time them out.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export function administratorRoleIds(roles: Iterable<{ readonly id: string; readonly permissions: Readonly<PermissionsBitField> }>): Set<string> {
	const ids = new Set<string>();
	for (const role of roles) if (role.permissions.has(PermissionFlagsBits.Administrator, false)) ids.add(role.id);
	return ids;
}
