import { OverwriteType, PermissionFlagsBits, PermissionsBitField, type APIOverwrite } from 'discord.js';

/**
 * A member's permissions in one channel: their guild permissions with the channel's overwrites
 * applied in Discord's order (`@everyone`'s, then all of the member's roles' at once, then the
 * member's own), each taking its `deny` away before adding its `allow`. Administrator is never
 * overridden.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-overwrites}
 */
export function channelPermissions(
	guild: PermissionsBitField,
	member: { id: string; roleIds: readonly string[] },
	guildId: string,
	overwrites: readonly APIOverwrite[],
): PermissionsBitField {
	if (guild.has(PermissionFlagsBits.Administrator)) return new PermissionsBitField(PermissionsBitField.All);
	const result = new PermissionsBitField(guild.bitfield);
	const apply = (allow: bigint, deny: bigint): void => {
		result.remove(deny).add(allow);
	};
	const everyone = overwrites.find((overwrite) => overwrite.type === OverwriteType.Role && overwrite.id === guildId);
	if (everyone) apply(BigInt(everyone.allow), BigInt(everyone.deny));
	let allow = 0n;
	let deny = 0n;
	for (const overwrite of overwrites) {
		if (overwrite.type !== OverwriteType.Role || overwrite.id === guildId || !member.roleIds.includes(overwrite.id)) continue;
		allow |= BigInt(overwrite.allow);
		deny |= BigInt(overwrite.deny);
	}
	apply(allow, deny);
	const own = overwrites.find((overwrite) => overwrite.type === OverwriteType.Member && overwrite.id === member.id);
	if (own) apply(BigInt(own.allow), BigInt(own.deny));
	return result;
}
