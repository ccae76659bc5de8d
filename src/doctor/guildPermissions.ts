import { PermissionFlagsBits, PermissionsBitField, type APIRole } from 'discord.js';

/**
 * A member's guild-level permissions: `@everyone`'s (the role whose id is the guild's) and every
 * role's they hold, together. The owner, and anyone with Administrator, has them all.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-overwrites}
 */
export function guildPermissions(roleIds: readonly string[], roles: readonly APIRole[], guildId: string, isOwner: boolean): PermissionsBitField {
	if (isOwner) return new PermissionsBitField(PermissionsBitField.All);
	const held = new Set(roleIds);
	let bits = 0n;
	for (const role of roles) if (role.id === guildId || held.has(role.id)) bits |= BigInt(role.permissions);
	return new PermissionsBitField((bits & PermissionFlagsBits.Administrator) === 0n ? bits : PermissionsBitField.All);
}
