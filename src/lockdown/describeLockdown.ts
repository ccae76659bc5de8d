import type { Lockdown } from './Lockdown.js';

/** How a time is shown: Discord's timestamp markup in the server, ISO 8601 in a terminal. */
export type ShowTime = (at: Date) => string;

/** `<t:…:f> (<t:…:R>)`: each reader sees the time in their own zone, and how far off it is. */
export const discordTime: ShowTime = (at) => {
	const seconds = Math.floor(at.getTime() / 1000);
	return `<t:${seconds}:f> (<t:${seconds}:R>)`;
};

/** `invites paused until …; DMs between members open`: what a lockdown holds, in one line. */
export function describeLockdown(lockdown: Lockdown, show: ShowTime): string {
	const part = (what: string, until: Date | null): string => (until ? `${what} paused until ${show(until)}` : `${what} open`);
	return `${part('invites', lockdown.invitesUntil)}; ${part('DMs between members', lockdown.dmsUntil)}`;
}
