import { describe, expect, it } from 'vitest';
import { ErrorCodes, JobError } from '../../../../src/errors.js';
import { parseDateOrDuration } from '../../../../src/jobs/filters/parseDateOrDuration.js';

const NOW = Date.parse('2024-03-10T12:00:00.000Z');
const iso = (text: string) => new Date(parseDateOrDuration(text, NOW)).toISOString();

function refusal(text: string): JobError {
	try {
		parseDateOrDuration(text, NOW);
	} catch (error) {
		expect(error).toBeInstanceOf(JobError);
		return error as JobError;
	}
	throw new Error(`"${text}" was accepted`);
}

describe('parseDateOrDuration', () => {
	it('a duration means that long before now', () => {
		expect(iso('90m')).toBe('2024-03-10T10:30:00.000Z');
		expect(iso('12h')).toBe('2024-03-10T00:00:00.000Z');
		expect(iso('7d')).toBe('2024-03-03T12:00:00.000Z');
		expect(iso('2w')).toBe('2024-02-25T12:00:00.000Z');
		expect(parseDateOrDuration('0d', NOW)).toBe(NOW);
	});

	it('a year is a calendar year, leap day included', () => {
		expect(iso('1y')).toBe('2023-03-10T12:00:00.000Z');
		expect(parseDateOrDuration('1y', Date.parse('2025-03-01T00:00:00Z'))).toBe(Date.parse('2024-03-01T00:00:00Z'));
	});

	it('a date is midnight UTC, a timestamp is read with its zone', () => {
		expect(iso('2024-01-31')).toBe('2024-01-31T00:00:00.000Z');
		expect(iso('2024-01-31T18:00:00Z')).toBe('2024-01-31T18:00:00.000Z');
		expect(iso('2024-01-31T18:00+02:00')).toBe('2024-01-31T16:00:00.000Z');
		expect(iso('2016-04-30T11:18:25.796Z')).toBe('2016-04-30T11:18:25.796Z');
	});

	it('ignores spaces around the value', () => {
		expect(iso(' 7d ')).toBe('2024-03-03T12:00:00.000Z');
	});

	it('refuses anything else with the stable code, naming the value and the accepted forms', () => {
		for (const text of ['', '7', 'd7', '7 days', '-7d', '7D', '1.5d', 'yesterday', '31/01/2024', 'now']) {
			const error = refusal(text);
			expect(error.code).toBe(ErrorCodes.InvalidArgument);
			expect(error.message).toContain(`"${text}"`);
			expect(error.message).toContain('2024-01-31');
			expect(error.message).toContain('7d');
		}
	});

	it('refuses a day the calendar does not have, where Date.parse would roll over to the next month', () => {
		expect(refusal('2024-02-30').message).toContain('not a day of the calendar');
		expect(refusal('2023-02-29T00:00:00Z').message).toContain('not a day of the calendar');
		expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
	});

	it("refuses a time without its zone, which would be read in the server's zone", () => {
		expect(refusal('2024-01-31T18:00').message).toContain('no time zone');
	});

	it('refuses a time of day that does not exist', () => {
		expect(refusal('2024-01-31T25:00:00Z').message).toContain('time of day');
	});

	it('refuses a duration reaching past what a date can hold', () => {
		expect(refusal('999999999y').message).toContain('further than a date can');
	});
});
