import { describe, expect, it } from 'vitest';
import { renderFollowingLine, renderProgressLine } from '../../../src/present/index.js';
import { snapshot, worker } from '../../support/statusFixtures.js';

describe('renderProgressLine', () => {
	it('is one line of exactly the width, with the bar, share, counts, rate and ETA', () => {
		const line = renderProgressLine(snapshot([worker(0)]), 100);
		expect(line).toHaveLength(100);
		expect(line).not.toContain('\n');
		expect(line).toMatch(/^\[█+░+\]\s+51%\s+5,156\/10,000\s+3\.5\/s\s+ETA 1h 02m/);
	});

	it('shows 0% and 100% and no NaN at the ends', () => {
		expect(renderProgressLine(snapshot([], { total: 0, done: 0, rate: 0, etaMs: null }), 60)).toMatch(/^\[░+\]\s+0%.*ETA —/);
		expect(renderProgressLine(snapshot([worker(0, { done: 10_000 })], { done: 10_000, etaMs: 0 }), 60)).toMatch(/^\[█+\] 100%/);
	});

	it('a narrow terminal still gets a line no wider than it', () => {
		expect(renderProgressLine(snapshot([worker(0)]), 30).length).toBeLessThanOrEqual(30);
	});
});

describe('renderFollowingLine', () => {
	const since = Date.UTC(2026, 0, 1);
	const figures = { since, changed: 12, alreadyDone: 3, cant: 1, failed: 0, lastChangeAt: since + 7_200_000 };

	it('says how long the rule has followed joins, what it did for joiners and when it last changed one, in exactly the width', () => {
		const line = renderFollowingLine(figures, since + 7_242_000, 79);
		expect(line).toHaveLength(79);
		expect(line.trimEnd()).toBe("following joins 2h 00m · applied 12 · can't 1 · failed 0 · last change 42s ago");
	});

	it('before any joiner was changed, says none was; a narrow terminal still gets a line no wider than it', () => {
		expect(renderFollowingLine({ ...figures, changed: 0, lastChangeAt: null }, since + 5_000)).toContain('no change yet');
		expect(renderFollowingLine(figures, since + 5_000, 30)).toHaveLength(30);
	});
});
