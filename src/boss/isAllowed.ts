import { type ChatInputCommandInteraction, PermissionFlagsBits } from 'discord.js';
import type { PermissionSettings } from '../config/Config.js';

/**
 * Whether this member may run massnick's commands, checked on every use: Discord hides the
 * commands from members without Manage Nicknames, but a server admin can change who sees them.
 */
export function isAllowed(interaction: ChatInputCommandInteraction, rules: PermissionSettings): boolean {
	if (rules.allowedUserIds.includes(interaction.user.id)) return true;
	const member = interaction.member;
	const roles = member && 'cache' in member.roles ? [...member.roles.cache.keys()] : (member?.roles as string[] | undefined) ?? [];
	if (roles.some((role) => rules.allowedRoleIds.includes(role))) return true;
	return rules.requireManageNicknames && interaction.memberPermissions?.has(PermissionFlagsBits.ManageNicknames) === true;
}
