import { ErrorCodes, JobError } from '../../errors.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Fixed-length units; years are calendar years (a leap day included), not 365 days. */
const UNIT_MS: Readonly<Record<string, number>> = { m: MINUTE, h: HOUR, d: DAY, w: 7 * DAY };

const DURATION = /^(\d{1,9})([mhdwy])$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

const ACCEPTED =
	'Write a date (2024-01-31, midnight UTC), a time with its zone (2024-01-31T18:00:00Z, 2024-01-31T18:00+02:00), ' +
	'or a duration back from now (90m, 12h, 7d, 2w, 1y).';

/** Whether `text` is a duration (`7d`), which {@link parseDateOrDuration} reads back from now, rather than a date. */
export function isDuration(text: string): boolean {
	return DURATION.test(text.trim());
}

/**
 * The Unix milliseconds a user means by `text`: an ISO date or timestamp, or a duration meaning
 * "now minus that" (`7d` is a week ago). For the filters' `joinedBefore`, `createdAfter`...
 *
 * Refused, with a message naming the value and the accepted forms: anything else, a date that does
 * not exist (`2024-02-30`, which `Date.parse` would roll over to March), and a time without its
 * zone, which `Date.parse` reads in the server's zone, not the user's.
 *
 * @param now - the clock's reading, Unix milliseconds, so tests and a resumed job can pin it
 * @throws JobError (`INVALID_ARGUMENT`)
 */
export function parseDateOrDuration(text: string, now: number): number {
	const value = text.trim();
	const duration = DURATION.exec(value);
	if (duration) return durationAgo(Number(duration[1]), duration[2] ?? '', now, text);

	const timestamp = TIMESTAMP.exec(value);
	const date = DATE.exec(value) ?? timestamp;
	if (!date) throw invalid(text, 'is not a date or a duration');
	if (!isCalendarDate(Number(date[1]), Number(date[2]), Number(date[3]))) throw invalid(text, 'is not a day of the calendar');
	if (timestamp && timestamp[4] === undefined) throw invalid(text, 'has no time zone; add Z for UTC or an offset like +02:00');
	const time = Date.parse(value);
	if (Number.isNaN(time)) throw invalid(text, 'is not a time of day that exists');
	return time;
}

function durationAgo(count: number, unit: string, now: number, text: string): number {
	if (!Number.isFinite(now)) throw new RangeError(`now (${now}) is not a time`);
	let time: number;
	if (unit === 'y') {
		const then = new Date(now);
		then.setUTCFullYear(then.getUTCFullYear() - count);
		time = then.getTime();
	} else {
		time = now - count * (UNIT_MS[unit] ?? Number.NaN);
	}
	// Past what a Date can hold (about 270,000 years back).
	if (Number.isNaN(new Date(time).getTime())) throw invalid(text, 'reaches back further than a date can');
	return time;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, does not read 0050 as 1950
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function invalid(text: string, what: string): JobError {
	return new JobError(ErrorCodes.InvalidArgument, `"${text}" ${what}. ${ACCEPTED}`);
}
