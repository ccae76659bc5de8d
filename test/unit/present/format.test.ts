import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration, formatRate, formatWorkers, percent, progressBar } from '../../../src/present/index.js';

describe('format', () => {
	it.each([
		[0, 0, '░░░░░░░░░░'],
		[50, 100, '█████░░░░░'],
		[52, 100, '█████░░░░░'],
		[100, 100, '██████████'],
		[150, 100, '██████████'],
		[5, 0, '░░░░░░░░░░'],
	])('the bar for %i of %i is %s', (done, total, bar) => {
		expect(progressBar(done, total, 10)).toBe(bar);
	});

	it.each([
		[0, 0, '0%'],
		[0, 10, '0%'],
		[52, 100, '52%'],
		[999, 1000, '99%'],
		[10, 10, '100%'],
		[11, 10, '100%'],
	])('%i of %i is %s', (done, total, text) => {
		expect(percent(done, total)).toBe(text);
	});

	it.each([
		[0, '0s'],
		[42_000, '42s'],
		[185_000, '3m 05s'],
		[3_720_000, '1h 02m'],
		[30 * 3_600_000, '30h 00m'],
		[null, '—'],
		[Number.POSITIVE_INFINITY, '—'],
		[Number.NaN, '—'],
		[-5, '—'],
	])('%s ms reads %s', (ms, text) => {
		expect(formatDuration(ms)).toBe(text);
	});

	it('rates never show NaN or Infinity', () => {
		expect(formatRate(3.456)).toBe('3.5');
		expect(formatRate(Number.NaN)).toBe('0.0');
		expect(formatRate(Number.POSITIVE_INFINITY)).toBe('0.0');
	});

	it('counts have thousands separators whatever the locale', () => {
		expect(formatCount(1234567)).toBe('1,234,567');
	});

	it.each([
		[[0, 1, 2, 3], 4, 'all 4 workers'],
		[[0], 1, 'the one worker'],
		[[3], 4, 'worker 3 of 4'],
		[[0, 1, 2, 3, 4], 10, 'workers 0–4 of 10'],
		[[0, 3, 4, 5], 10, 'workers 0, 3–5 of 10'],
		[[2, 3], 10, 'workers 2, 3 of 10'],
		[[1, 3, 5], 10, 'workers 1, 3, 5 of 10'],
		[[], 10, 'none of the 10 workers'],
	])('the workers %j of %i read %s', (ids, count, text) => {
		expect(formatWorkers(ids, count)).toBe(text);
	});
});
