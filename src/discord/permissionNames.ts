import { PermissionsBitField, type PermissionsString } from 'discord.js';

/** Permission flags as Discord's client shows them: `Send Messages`, `Manage Nicknames`. */
export function permissionNames(permissions: bigint | readonly PermissionsString[]): string[] {
	const names = typeof permissions === 'bigint' ? new PermissionsBitField(permissions).toArray() : permissions;
	return names.map((name) => name.replace(/([a-z])([A-Z])/g, '$1 $2'));
}

/** `A`, `A and B`, `A, B and C`. */
export function listInWords(items: readonly string[]): string {
	if (items.length <= 1) return items.join('');
	return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
