import { describe, expect, it } from 'vitest';
import { ErrorCodes, LockdownError } from '../../../src/errors.js';
import { checkLockdownHours, describeLockdown, discordTime, isLockedDown, lockdownOf } from '../../../src/lockdown/index.js';

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();

describe('lockdownOf: what the guild has paused now', () => {
	it('reads each time still ahead, and null for what is open', () => {
		const lockdown = lockdownOf({ invites_disabled_until: iso(NOW + 2 * HOUR), dms_disabled_until: null }, NOW);
		expect(lockdown).toEqual({ invitesUntil: new Date(NOW + 2 * HOUR), dmsUntil: null });
		expect(isLockedDown(lockdown)).toBe(true);
	});

	it('a time that has passed is open, as Discord lifts a pause once it runs out', () => {
		const lockdown = lockdownOf({ invites_disabled_until: iso(NOW - 1), dms_disabled_until: iso(NOW) }, NOW);
		expect(lockdown).toEqual({ invitesUntil: null, dmsUntil: null });
		expect(isLockedDown(lockdown)).toBe(false);
	});

	it('no incidents_data, or an unreadable time, is nothing paused', () => {
		expect(isLockedDown(lockdownOf(null, NOW))).toBe(false);
		expect(isLockedDown(lockdownOf(undefined, NOW))).toBe(false);
		expect(isLockedDown(lockdownOf({ invites_disabled_until: 'soon', dms_disabled_until: null }, NOW))).toBe(false);
	});
});

describe('checkLockdownHours: a whole number from 1 to 24, as Discord allows', () => {
	it('takes 1 to 24', () => {
		expect(checkLockdownHours(1, 'hours:')).toBe(1);
		expect(checkLockdownHours(24, 'hours:')).toBe(24);
	});

	it.each([25, 48, 0, -1, 1.5, Number.NaN])('refuses %s, naming the option and the bound', (hours) => {
		let error: unknown;
		try {
			checkLockdownHours(hours, '--hours');
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(LockdownError);
		expect((error as LockdownError).code).toBe(ErrorCodes.InvalidArgument);
		expect((error as LockdownError).message).toMatch(/^--hours must be a whole number from 1 to 24/);
	});

	it('more than 24 says it is Discord’s bound and what to do', () => {
		expect(() => checkLockdownHours(25, 'hours:')).toThrow(/Discord pauses invites and DMs for at most 24 hours\. Run it again with 24 or less/);
	});
});

describe('describeLockdown', () => {
	it('says until when each is paused, in Discord’s timestamp markup', () => {
		const until = new Date(NOW + HOUR);
		const seconds = Math.floor(until.getTime() / 1000);
		expect(describeLockdown({ invitesUntil: until, dmsUntil: null }, discordTime)).toBe(
			`invites paused until <t:${seconds}:f> (<t:${seconds}:R>); DMs between members open`,
		);
		expect(describeLockdown({ invitesUntil: null, dmsUntil: until }, (at) => at.toISOString())).toBe(
			`invites open; DMs between members paused until ${until.toISOString()}`,
		);
	});
});
