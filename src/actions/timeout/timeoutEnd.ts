import { ErrorCodes, JobError } from '../../errors.js';
import { parseDateOrDuration } from '../../jobs/index.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The longest timeout Discord allows: 28 days from the moment it is set; a later end is refused
 * with 400/50035 `INVALID_COMMUNICATION_DISABLED_TIMESTAMP`.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export const MAX_TIMEOUT_MS = 28 * DAY;

const UNIT_MS: Readonly<Record<string, number>> = { m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };
const DURATION = /^(\d{1,9})([mhdw])$/;
const LOOKS_LIKE_A_DATE = /^\d{4}-/;

const ACCEPTED = 'Write how long (10m, 6h, 7d, 4w; at most 28 days) or when it ends, with its zone (2026-05-01T18:00Z).';

/**
 * When a timeout asked for as `text` ends, Unix milliseconds on a whole second: a duration from
 * `now` (`6h`), or an end time with its zone (`2026-05-01T18:00Z`), which is how a job is asked
 * for again with the same end (a stopped `massnick run`, every pod of a fleet). It must lie after
 * `now` and at most 28 days ahead. The whole second keeps it the same whatever precision Discord
 * gives back, and is never later than asked, so 28 days stays within Discord's bound.
 *
 * @throws {JobError} `INVALID_ARGUMENT`, naming `option`, the value and what it takes.
 */
export function timeoutEnd(text: string, now: number, option = 'duration'): number {
	const value = text.trim();
	const duration = DURATION.exec(value);
	let end: number;
	if (duration) {
		const ms = Number(duration[1]) * (UNIT_MS[duration[2] ?? ''] ?? Number.NaN);
		if (ms === 0) throw invalid(option, text, 'is no time at all: a timeout lasts at least a minute (1m)');
		if (ms > MAX_TIMEOUT_MS) throw invalid(option, text, 'is longer than Discord lets a timeout last: 28 days at most (28d, 4w, 672h)');
		end = now + ms;
	} else if (LOOKS_LIKE_A_DATE.test(value)) {
		try {
			end = parseDateOrDuration(value, now);
		} catch {
			throw invalid(option, text, 'is not a time: give a date and time with its zone (2026-05-01T18:00Z) or a duration (6h)');
		}
		if (end <= now) throw invalid(option, text, `is already past (it is ${stamp(now)} now): give a later end, or a duration (6h)`);
		if (end > now + MAX_TIMEOUT_MS)
			throw invalid(option, text, `is more than 28 days ahead, as far as Discord lets a timeout last (until ${stamp(now + MAX_TIMEOUT_MS)} at most)`);
	} else {
		throw invalid(option, text, 'is not a duration or an end time');
	}
	return Math.floor(end / 1000) * 1000;
}

/** An end as the words and the journal show it, and as `duration` takes it back: `2026-05-01T18:00:00Z`. */
export function stamp(ms: number): string {
	return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

function invalid(option: string, text: string, what: string): JobError {
	const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
	return new JobError(ErrorCodes.InvalidArgument, `${option}: ${shown} ${what}. ${ACCEPTED}`, { context: { option } });
}
