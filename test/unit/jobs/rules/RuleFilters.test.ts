import { describe, expect, it } from 'vitest';
import type { MemberFilters } from '../../../../src/jobs/planner.js';
import { RULE_FILTERS_EVERY_MS, RuleFilters, resolveAgo } from '../../../../src/jobs/rules/RuleFilters.js';

const DAY = 86_400_000;
const START = Date.parse('2026-12-03T12:00:00Z');

describe('resolveAgo', () => {
	it('reads each duration back from now, and leaves dates and other filters as they are', () => {
		const filters: MemberFilters = { createdAfter: 0, joinedBefore: 5, nameMatches: 'raid', ago: { createdAfter: '1d' } };
		expect(resolveAgo(filters, START)).toEqual({ ...filters, createdAfter: START - DAY });
	});

	it('is the filters themselves without durations', () => {
		const filters: MemberFilters = { createdAfter: 7 };
		expect(resolveAgo(filters, START)).toBe(filters);
	});

	it('is undefined once a duration has moved past the date that ends its window', () => {
		const end = Date.parse('2027-01-01T00:00:00Z');
		const filters: MemberFilters = { createdAfter: START - DAY, createdBefore: end, ago: { createdAfter: '1d' } };
		expect(resolveAgo(filters, START)).toBeDefined();
		expect(resolveAgo(filters, end + DAY)).toBeUndefined();
		expect(resolveAgo(filters, end + DAY - 1)).toBeDefined();
	});
});

describe('RuleFilters', () => {
	it('reads its durations anew once a minute has passed, each time a new object', () => {
		let now = START;
		const rule = new RuleFilters({ createdAfter: 0, ago: { createdAfter: '1d' } }, () => now);
		const first = rule.current;
		expect(first?.createdAfter).toBe(START - DAY);
		now += RULE_FILTERS_EVERY_MS - 1;
		expect(rule.current).toBe(first);
		now += 1;
		const second = rule.current;
		expect(second).not.toBe(first);
		expect(second?.createdAfter).toBe(now - DAY);
		// Thirty days on, `1d` is still a day.
		now += 30 * DAY;
		expect(rule.current?.createdAfter).toBe(now - DAY);
	});

	it('plans with the filters of now, and skips everyone once its window has closed', () => {
		let now = START;
		const end = START + DAY;
		const rule = new RuleFilters({ createdAfter: 0, createdBefore: end, ago: { createdAfter: '1d' } }, () => now);
		expect(rule.plan((filters) => ({ action: 'skip', reason: String(filters.createdAfter) }))).toEqual({ action: 'skip', reason: String(START - DAY) });
		now = end + 2 * DAY;
		expect(rule.plan(() => ({ action: 'change', from: null, to: 'x' }) as never)).toEqual({ action: 'skip', reason: 'window-closed' });
	});

	it('keeps filters without durations as given, whatever the clock', () => {
		let now = START;
		const filters: MemberFilters = { joinedAfter: 3 };
		const rule = new RuleFilters(filters, () => now);
		now += 10 * DAY;
		expect(rule.current).toBe(filters);
	});
});
