import { moduleOfType } from '../actions/index.js';
import type { MassAction } from '../jobs/index.js';
import { commandDefinitions } from './commands/bossCommands.js';

/**
 * The permission a command needs, from its definition: its action's (Manage Nicknames; Manage
 * Roles for /massrole; Moderate Members for /masstimeout; Kick Members for /masskick; Ban Members
 * and Manage Guild for /massban), Manage Guild for /lockdown. Discord hides a command from members
 * without it; the boss checks it again on every use, and on every button of what the command
 * started.
 *
 * `undefined` for the commands every job shares (/restore, /status, /stats, /shards, /cancel):
 * they have none of their own, since a member who may run any one job needs them (see
 * `maySeeJobs`), and Discord cannot show a command to members holding any one of several
 * permissions.
 */
export function commandPermission(name: string): bigint | undefined {
	const bits = commandDefinitions.find((command) => command.name === name)?.default_member_permissions;
	return bits === undefined || bits === null ? undefined : BigInt(bits);
}

/**
 * What a job of `action` asks of who runs it, and of whoever goes on with it (a restart, a standing
 * rule re-checked): its command's permission (see {@link commandPermission}), else the action's own.
 */
export function actionCommandPermission(action: Pick<MassAction, 'type' | 'permission'>): bigint {
	const module = moduleOfType(action.type);
	return (module && commandPermission(module.command.name)) ?? action.permission;
}
