import { describe, expect, it } from 'vitest';
import { MAX_TIMEOUT_MS, stamp, timeoutEnd } from '../../../../src/actions/timeout/timeoutEnd.js';
import { ErrorCodes, JobError } from '../../../../src/errors.js';

const NOW = Date.UTC(2026, 4, 1, 12, 0, 0, 750);
const SECOND_NOW = Date.UTC(2026, 4, 1, 12);

function refusal(text: string): JobError {
	try {
		timeoutEnd(text, NOW);
	} catch (error) {
		if (error instanceof JobError) return error;
		throw error;
	}
	throw new Error(`${text} was accepted`);
}

describe('timeoutEnd', () => {
	it('reads a duration from now, on the whole second at or before it', () => {
		expect(timeoutEnd('10m', NOW)).toBe(SECOND_NOW + 10 * 60_000);
		expect(timeoutEnd(' 6h ', NOW)).toBe(SECOND_NOW + 6 * 3_600_000);
		expect(timeoutEnd('7d', NOW)).toBe(SECOND_NOW + 7 * 86_400_000);
		expect(timeoutEnd('4w', NOW)).toBe(SECOND_NOW + MAX_TIMEOUT_MS);
		expect(timeoutEnd('28d', NOW)).toBeLessThanOrEqual(NOW + MAX_TIMEOUT_MS);
	});

	it('reads an end time with its zone, which is how the same job is asked for again', () => {
		expect(timeoutEnd('2026-05-01T18:00Z', NOW)).toBe(Date.UTC(2026, 4, 1, 18));
		expect(timeoutEnd('2026-05-01T20:00+02:00', NOW)).toBe(Date.UTC(2026, 4, 1, 18));
		expect(timeoutEnd(stamp(Date.UTC(2026, 4, 3, 9, 30, 15)), NOW)).toBe(Date.UTC(2026, 4, 3, 9, 30, 15));
	});

	it('refuses more than 28 days, naming the bound and what to give', () => {
		for (const text of ['29d', '5w', '40321m', '2026-05-29T13:00Z']) {
			const error = refusal(text);
			expect(error.code).toBe(ErrorCodes.InvalidArgument);
			expect(error.message).toMatch(/^duration: ".+" .*28 days/);
			expect(error.message).toMatch(/10m, 6h, 7d, 4w/);
		}
	});

	it('refuses no time at all, an end already past, a time without its zone and anything else', () => {
		expect(refusal('0m').message).toMatch(/at least a minute/);
		expect(refusal('2026-05-01T11:00Z').message).toMatch(/already past/);
		expect(refusal('2026-05-01T18:00').message).toMatch(/not a time/);
		expect(refusal('2026-02-30').message).toMatch(/not a time/);
		for (const text of ['', '6', 'h', '1.5h', '30s', '1y', 'forever', '-1h']) expect(refusal(text).message).toMatch(/is not a duration or an end time/);
	});
});
