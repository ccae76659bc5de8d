import type { ChatInputCommandInteraction } from 'discord.js';
import type { PermissionSettings } from '../config/index.js';
import { commandPermission } from './commandPermission.js';
import { isAllowed, lackedPermissions, notAllowedText } from './isAllowed.js';
import { mayNotSeeJobsText, maySeeJobs } from './maySeeJobs.js';

/**
 * Why this member may not run this command, or `undefined` when they may: a command with a
 * permission of its own needs it (naming what they lack); the commands every job shares need the
 * permission of some job (`maySeeJobs`), and then what the job they act on asks.
 */
export function commandRefusal(interaction: ChatInputCommandInteraction, rules: PermissionSettings): string | undefined {
	const needs = commandPermission(interaction.commandName);
	if (needs === undefined) return maySeeJobs(interaction, rules) ? undefined : mayNotSeeJobsText(interaction.commandName);
	if (isAllowed(interaction, rules, needs)) return undefined;
	return notAllowedText(`use /${interaction.commandName}`, lackedPermissions(interaction, rules, needs));
}
