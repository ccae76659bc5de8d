import { type ChatInputCommandInteraction, PermissionFlagsBits } from 'discord.js';
import type { PermissionSettings } from '../config/Config.js';

/**
 * Whether this member may run a command, checked on every use: Discord hides each command from
 * members without its permission (Manage Nicknames; Manage Roles for /massrole), but a server
 * admin can change who sees them.
 */
export function isAllowed(interaction: ChatInputCommandInteraction, rules: PermissionSettings, permission: bigint = PermissionFlagsBits.ManageNicknames): boolean {
	if (rules.allowedUserIds.includes(interaction.user.id)) return true;
	const member = interaction.member;
	const roles = member && 'cache' in member.roles ? [...member.roles.cache.keys()] : (member?.roles as string[] | undefined) ?? [];
	if (roles.some((role) => rules.allowedRoleIds.includes(role))) return true;
	return rules.requireManageNicknames && interaction.memberPermissions?.has(permission) === true;
}
