import { OverwriteType, PermissionFlagsBits, type APIOverwrite, type APIRole } from 'discord-api-types/v10';

/** Every permission bit Discord defines: what ADMINISTRATOR and ownership amount to. */
export const ALL_PERMISSIONS: bigint = Object.values(PermissionFlagsBits).reduce((all, bit) => all | bit, 0n);

/** What `@everyone` may do in a fresh community guild, close to Discord's defaults. */
export const EVERYONE_PERMISSIONS: bigint =
	PermissionFlagsBits.CreateInstantInvite |
	PermissionFlagsBits.AddReactions |
	PermissionFlagsBits.ViewChannel |
	PermissionFlagsBits.SendMessages |
	PermissionFlagsBits.EmbedLinks |
	PermissionFlagsBits.AttachFiles |
	PermissionFlagsBits.ReadMessageHistory |
	PermissionFlagsBits.UseExternalEmojis |
	PermissionFlagsBits.Connect |
	PermissionFlagsBits.Speak |
	PermissionFlagsBits.UseVAD |
	PermissionFlagsBits.ChangeNickname |
	PermissionFlagsBits.UseApplicationCommands;

/**
 * What a member keeps while timed out: "Timed out members will temporarily lose all permissions
 * except VIEW_CHANNEL and READ_MESSAGE_HISTORY. Owners and admin users with ADMINISTRATOR
 * permissions are exempt" (Discord's changelog of 2021-12-22, quoted in discord.js #7135).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#guild-member-object}
 */
export const TIMED_OUT_PERMISSIONS: bigint = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.ReadMessageHistory;

/**
 * A member's guild-level permissions: the union of `@everyone` and their roles, with
 * ADMINISTRATOR and ownership granting everything.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-overwrites}
 */
export function computePermissions(roleIds: readonly string[], rolesById: ReadonlyMap<string, APIRole>, everyoneId: string, isOwner: boolean): bigint {
	if (isOwner) return ALL_PERMISSIONS;
	let permissions = BigInt(rolesById.get(everyoneId)?.permissions ?? '0');
	for (const id of roleIds) {
		const role = rolesById.get(id);
		if (role) permissions |= BigInt(role.permissions);
	}
	return (permissions & PermissionFlagsBits.Administrator) === 0n ? permissions : ALL_PERMISSIONS;
}

/**
 * The position of a member's highest role (`@everyone`, position 0, when they have none).
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function highestRolePosition(roleIds: readonly string[], rolesById: ReadonlyMap<string, APIRole>): number {
	let highest = 0;
	for (const id of roleIds) {
		const position = rolesById.get(id)?.position ?? 0;
		if (position > highest) highest = position;
	}
	return highest;
}

/**
 * A member's permissions in a channel: the guild-level ones, then the channel's overwrites in
 * Discord's order (`@everyone`, then every role the member has at once, then the member's own),
 * each removing its `deny` before adding its `allow`. ADMINISTRATOR ignores overwrites.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-overwrites}
 */
export function computeChannelPermissions(
	guildPermissions: bigint,
	member: { id: string; roleIds: readonly string[] },
	everyoneId: string,
	overwrites: readonly APIOverwrite[],
): bigint {
	if ((guildPermissions & PermissionFlagsBits.Administrator) !== 0n) return ALL_PERMISSIONS;
	const apply = (permissions: bigint, allow: bigint, deny: bigint): bigint => (permissions & ~deny) | allow;
	let permissions = guildPermissions;
	const everyone = overwrites.find((overwrite) => overwrite.type === OverwriteType.Role && overwrite.id === everyoneId);
	if (everyone) permissions = apply(permissions, BigInt(everyone.allow), BigInt(everyone.deny));
	let allow = 0n;
	let deny = 0n;
	for (const overwrite of overwrites) {
		if (overwrite.type !== OverwriteType.Role || overwrite.id === everyoneId || !member.roleIds.includes(overwrite.id)) continue;
		allow |= BigInt(overwrite.allow);
		deny |= BigInt(overwrite.deny);
	}
	permissions = apply(permissions, allow, deny);
	const own = overwrites.find((overwrite) => overwrite.type === OverwriteType.Member && overwrite.id === member.id);
	return own ? apply(permissions, BigInt(own.allow), BigInt(own.deny)) : permissions;
}
