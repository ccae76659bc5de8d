import { describe, expect, it } from 'vitest';
import { resumedTooOften } from '../../../../src/jobs/resume/resumedTooOften.js';

const at = (minutes: number): string => new Date(Date.UTC(2026, 0, 1, 3, 0) + minutes * 60_000).toISOString();

describe('the crash-loop guard of resumes', () => {
	it('lets a job resume while it has been resumed fewer than three times', () => {
		expect(resumedTooOften([])).toBe(false);
		expect(resumedTooOften([at(0), at(1)])).toBe(false);
	});

	it('stops a fourth resume when the last three fall within ten minutes', () => {
		expect(resumedTooOften([at(0), at(1), at(2)])).toBe(true);
		expect(resumedTooOften([at(0), at(5), at(10)])).toBe(true);
		expect(resumedTooOften([at(-600), at(0), at(4), at(9)])).toBe(true);
	});

	it('lets a job resume when its last three resumes are spread over more than ten minutes', () => {
		expect(resumedTooOften([at(0), at(5), at(10.01)])).toBe(false);
		// Two quick deaths long ago, then hours of running: the next restart resumes it.
		expect(resumedTooOften([at(0), at(1), at(300)])).toBe(false);
	});

	it('looks at the last three only, in the order they were written', () => {
		expect(resumedTooOften([at(0), at(1), at(2), at(100)])).toBe(false);
	});
});
