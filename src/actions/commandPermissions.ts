import { PermissionFlagsBits } from 'discord.js';
import type { ActionModule } from './ActionModule.js';
import { actionModules } from './actionModules.js';

/** What one command asks of the workers, and of who runs it by hand. */
export interface CommandPermission {
	/** The command's name, without the slash: `masstimeout`. */
	readonly command: string;
	/** Its module's `default_member_permissions`, which its actions' `permission` is too. */
	readonly permission: bigint;
}

/**
 * Each action's command with the guild permission it needs, for the doctor and the invite links:
 * a job's action asks it of every worker and of who runs it (`MassAction.permission`), and its
 * command shows only to members holding it (`default_member_permissions`), the same bits.
 */
export function commandPermissions(modules: readonly ActionModule[] = actionModules): CommandPermission[] {
	return modules.map((module) => ({
		command: module.command.name,
		permission: BigInt(module.command.default_member_permissions ?? PermissionFlagsBits.ManageNicknames),
	}));
}
