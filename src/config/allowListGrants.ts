import { PermissionFlagsBits } from 'discord.js';

/**
 * What `permissions.allowedUserIds` and `allowedRoleIds` stand in for: Manage Nicknames and Manage
 * Roles, the permissions of the jobs that /restore undoes in full. Never Moderate Members, Kick
 * Members, Ban Members or Manage Guild: a timeout, a kick, a ban or a lockdown asks its requester
 * to hold the permission by hand, as Discord would, whatever the settings say.
 */
export const ALLOW_LIST_GRANTS = PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ManageRoles;

/** Whether the allow-lists may stand in for every flag of `permission`. */
export function allowListCovers(permission: bigint): boolean {
	return (permission & ~ALLOW_LIST_GRANTS) === 0n;
}

/** ` (or a role the operator allowed)` where the allow-lists may stand in for `permission`; nothing otherwise. */
export function orAllowed(permission: bigint): string {
	return allowListCovers(permission) ? ' (or a role the operator allowed)' : '';
}
