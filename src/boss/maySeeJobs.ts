import type { BaseInteraction } from 'discord.js';
import type { PermissionSettings } from '../config/index.js';
import { listInWords, permissionNames } from '../discord/permissionNames.js';
import { commandDefinitions } from './commands/bossCommands.js';
import { isAllowed } from './isAllowed.js';

type Asker = Pick<BaseInteraction, 'user' | 'member' | 'memberPermissions'>;

/**
 * The least a member holds who may run one of the commands with a permission of their own: each
 * command's permission, without those that hold another whole (Ban Members and Manage Guild holds
 * /lockdown's Manage Guild). Manage Nicknames, Manage Roles, Moderate Members, Kick Members,
 * Manage Guild.
 */
function leastPermissions(): bigint[] {
	const all = [...new Set(commandDefinitions.flatMap((command) => (command.default_member_permissions ? [BigInt(command.default_member_permissions)] : [])))];
	return all.filter((bits) => !all.some((other) => other !== bits && (bits & other) === other));
}

/**
 * Whether this member may use the commands every job shares (/restore, /status, /stats,
 * /shards, /cancel): they may run at least one of massnick's commands (see `leastPermissions`), or
 * the operator allowed them. Discord shows those commands to everyone (a command's
 * `default_member_permissions` asks for all its flags, never one of several), so the boss is
 * what keeps them from the rest; what each then does is bounded by the job it is about (a
 * /restore or /cancel of a ban asks for the ban's permissions).
 */
export function maySeeJobs(interaction: Asker, rules: PermissionSettings): boolean {
	return leastPermissions().some((permission) => isAllowed(interaction, rules, permission));
}

/** The private answer to a member who may not use a shared command. */
export function mayNotSeeJobsText(command: string): string {
	const names = leastPermissions().map((bits) => listInWords(permissionNames(bits)));
	return `You may not use /${command} here: it is for members who may run one of massnick's jobs, with ${names.slice(0, -1).join(', ')} or ${names.at(-1)} (or a role the operator allowed).`;
}
