import { PermissionFlagsBits } from 'discord.js';
import { commandDefinitions } from './commands/bossCommands.js';

/**
 * The permission a command needs, from its definition: Manage Nicknames, Manage Roles for
 * /massrole, Manage Guild for /lockdown. Discord hides a command from members without it; the boss checks it again on every
 * use, and on every button of what the command started.
 */
export function commandPermission(name: string): bigint {
	const definition = commandDefinitions.find((command) => command.name === name);
	return BigInt(definition?.default_member_permissions ?? PermissionFlagsBits.ManageNicknames);
}
