import type { APIIncidentsData } from 'discord.js';

/**
 * What the guild has paused now, read from its `incidents_data`: when invites and DMs between
 * members open again, or null for what is open. A time that has passed is open: Discord lifts a
 * pause by itself when it runs out.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#incidents-data-object}
 */
export interface Lockdown {
	readonly invitesUntil: Date | null;
	readonly dmsUntil: Date | null;
}

/** The lockdown a guild's `incidents_data` shows at `now` (Unix ms). */
export function lockdownOf(data: APIIncidentsData | null | undefined, now: number): Lockdown {
	const until = (value: string | null | undefined): Date | null => {
		if (!value) return null;
		const at = Date.parse(value);
		return Number.isFinite(at) && at > now ? new Date(at) : null;
	};
	return { invitesUntil: until(data?.invites_disabled_until), dmsUntil: until(data?.dms_disabled_until) };
}

/** Whether anything is paused. */
export function isLockedDown(lockdown: Lockdown): boolean {
	return lockdown.invitesUntil !== null || lockdown.dmsUntil !== null;
}
