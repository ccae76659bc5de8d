export { describeLockdown, discordTime, type ShowTime } from './describeLockdown.js';
export { bossLacksManageGuild, type LockdownRequest, type LockdownRest, liftLockdown, readLockdown, startLockdown } from './guildLockdown.js';
export { isLockedDown, type Lockdown, lockdownOf } from './Lockdown.js';
export { checkLockdownHours, LOCKDOWN_DEFAULT_HOURS, LOCKDOWN_MAX_HOURS } from './lockdownHours.js';
