import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';

/** Whether the boss can run `/lockdown`, as the report says it. */
export interface LockdownCheck {
	readonly ready: boolean;
	/** One line of the report, with what to do when it is not ready. */
	readonly line: string;
}

/**
 * `/lockdown` needs Manage Guild on the boss, and nothing else massnick does needs it: its absence
 * stops no job, so it is a line of the report, not a finding, and the fix is offered, not asked.
 */
export function checkLockdown(permissions: PermissionsBitField, roleName: string): LockdownCheck {
	if (permissions.has(PermissionFlagsBits.ManageGuild)) {
		return { ready: true, line: '/lockdown: ready (the boss has Manage Guild, which only /lockdown needs).' };
	}
	return {
		ready: false,
		line: `/lockdown: off. The boss lacks Manage Guild: needed only for /lockdown, which pauses invites and DMs in a raid. To allow it: Server Settings → Roles → ${roleName}: allow Manage Guild, or open the boss's link with Manage Guild below.`,
	};
}
