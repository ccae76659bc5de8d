import { describe, expect, it } from 'vitest';
import { backlogOverTime } from '../../../../bench/joinburst/backlogOverTime.js';

describe('backlogOverTime', () => {
	it('counts at each step who has joined and is not yet handled, until every joiner is', () => {
		// Joins at 0, 100, 200; handled at 150, 250, 1000.
		expect(backlogOverTime([0, 100, 200], [150, 250, 1000], { from: 0, stepMs: 100 })).toEqual([1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0]);
	});

	it('a joiner handled the moment it joins never counts; the samples end at the first one past the last event', () => {
		expect(backlogOverTime([0, 30], [0, 50], { from: 0, stepMs: 40 })).toEqual([0, 1, 0]);
	});

	it('a joiner never handled stays in the backlog to its end', () => {
		expect(backlogOverTime([0, 10, 20], [15], { from: 0, stepMs: 10 })).toEqual([1, 2, 2]);
	});

	it('takes its events in any order, and refuses a step that is not positive', () => {
		expect(backlogOverTime([200, 0, 100], [1000, 150, 250], { from: 0, stepMs: 500 })).toEqual([1, 1, 0]);
		expect(() => backlogOverTime([0], [1], { from: 0, stepMs: 0 })).toThrow(/stepMs/);
	});
});
