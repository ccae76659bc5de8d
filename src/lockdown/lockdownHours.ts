import { ErrorCodes, LockdownError } from '../errors.js';

/**
 * Discord pauses invites and DMs for at most 24 hours ahead (Modify Guild Incident Actions).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-incident-actions}
 */
export const LOCKDOWN_MAX_HOURS = 24;

/**
 * Without a number of hours, the longest Discord allows: in a raid the harm is in opening too
 * early, and `/lockdown off` opens at once when the cleanup is done.
 */
export const LOCKDOWN_DEFAULT_HOURS = LOCKDOWN_MAX_HOURS;

/**
 * The hours of a lockdown, checked as Discord would take them: a whole number from 1 to 24.
 * `what` names the option or flag in the message (`hours:`, `--hours`).
 *
 * @throws {LockdownError} for anything else, saying what to give instead.
 */
export function checkLockdownHours(hours: number, what: string): number {
	if (!Number.isInteger(hours) || hours < 1 || hours > LOCKDOWN_MAX_HOURS) {
		const why = hours > LOCKDOWN_MAX_HOURS ? `Discord pauses invites and DMs for at most ${LOCKDOWN_MAX_HOURS} hours` : 'it is a whole number of hours';
		throw new LockdownError(
			ErrorCodes.InvalidArgument,
			`${what} must be a whole number from 1 to ${LOCKDOWN_MAX_HOURS}, got ${hours}: ${why}. Run it again with ${LOCKDOWN_MAX_HOURS} or less, and again before it runs out if the raid goes on.`,
			{ context: { hours, max: LOCKDOWN_MAX_HOURS } },
		);
	}
	return hours;
}
