import { describe, expect, it } from 'vitest';
import { renderProgressLine } from '../../../src/present/index.js';
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
