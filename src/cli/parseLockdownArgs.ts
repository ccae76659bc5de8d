import { checkLockdownHours, LOCKDOWN_DEFAULT_HOURS, LOCKDOWN_MAX_HOURS } from '../lockdown/index.js';
import { LockdownError } from '../errors.js';

/** `massnick run lockdown …` as the command line asked for it: pause invites (on), or open them (off). */
export type LockdownRunRequest =
	| { readonly kind: 'lockdown'; readonly off: false; readonly hours: number; readonly dms: boolean | undefined }
	| { readonly kind: 'lockdown'; readonly off: true };

/** Its lines in `massnick run --help`. */
export const LOCKDOWN_USAGE = `lockdown [on] [--hours <1-${LOCKDOWN_MAX_HOURS}>] [--dms | --no-dms]
      pause the server's invites for that many hours (default ${LOCKDOWN_DEFAULT_HOURS}, Discord's most), as
      /lockdown on does; --dms pauses DMs between members too, --no-dms opens them, neither
      leaves them as they are. Sent with the boss's token: the boss needs Manage Guild
  lockdown off
      open invites and DMs again now`;

/**
 * Reads what follows `run lockdown`: `on` (the default) with `--hours`, `--dms` or `--no-dms`, or
 * `off` alone. Pure, like the rest of `massnick run`'s parsing.
 *
 * @returns the request, or the problem, naming the argument at fault.
 */
export function parseLockdownArgs(args: readonly string[]): { readonly request: LockdownRunRequest } | { readonly problem: string } {
	const [first, ...rest] = args;
	if (first === 'off') {
		return rest.length === 0
			? { request: { kind: 'lockdown', off: true } }
			: { problem: `run lockdown off takes nothing more, got ${JSON.stringify(rest[0])}` };
	}
	const flags = first === 'on' ? rest : args;
	let hours: number | undefined;
	let dms: boolean | undefined;
	for (let i = 0; i < flags.length; i++) {
		const arg = flags[i]!;
		const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
		if (flag === '--dms' || flag === '--no-dms') {
			if (inline !== undefined) return { problem: `${flag} takes no value` };
			if (dms !== undefined) return { problem: 'give --dms or --no-dms once' };
			dms = flag === '--dms';
		} else if (flag === '--hours') {
			if (hours !== undefined) return { problem: '--hours is given twice' };
			const value = inline ?? flags[++i];
			if (value === undefined || value.startsWith('--')) return { problem: `--hours needs a whole number from 1 to ${LOCKDOWN_MAX_HOURS}` };
			try {
				hours = checkLockdownHours(value.trim() === '' ? Number.NaN : Number(value), '--hours');
			} catch (error) {
				if (error instanceof LockdownError) return { problem: error.message };
				throw error;
			}
		} else {
			return {
				problem: `${flag.startsWith('--') ? `unknown option ${flag}` : `unexpected argument ${JSON.stringify(flag)}`}; run lockdown takes on or off, --hours, --dms, --no-dms`,
			};
		}
	}
	return { request: { kind: 'lockdown', off: false, hours: hours ?? LOCKDOWN_DEFAULT_HOURS, dms } };
}
