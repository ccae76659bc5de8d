import { describe, expect, it } from 'vitest';
import { joinLatencies } from '../../../../bench/joinburst/joinLatencies.js';

const joins = new Map([
	['1', 1000],
	['2', 1100],
	['3', 1200],
]);

describe('joinLatencies', () => {
	it('pairs each joiner with their first timeout: the time between, ascending, and the pairs in join order', () => {
		const result = joinLatencies(joins, [
			{ targetId: '2', at: 1150 },
			{ targetId: '1', at: 1400 },
			{ targetId: '3', at: 1210 },
		]);
		expect(result.latenciesMs).toEqual([10, 50, 400]);
		expect(result.handled).toEqual([
			{ joinedAt: 1000, timedOutAt: 1400 },
			{ joinedAt: 1100, timedOutAt: 1150 },
			{ joinedAt: 1200, timedOutAt: 1210 },
		]);
		expect([result.notTimedOut, result.timedOutAgain, result.outside]).toEqual([[], [], []]);
	});

	it('names a joiner timed out twice (the first counts), one never timed out, and anyone else timed out', () => {
		const result = joinLatencies(joins, [
			{ targetId: '1', at: 1500 },
			{ targetId: '1', at: 1300 },
			{ targetId: '9', at: 1250 },
			{ targetId: '2', at: 1120 },
		]);
		expect(result.latenciesMs).toEqual([20, 300]);
		expect(result.notTimedOut).toEqual(['3']);
		expect(result.timedOutAgain).toEqual(['1']);
		expect(result.outside).toEqual(['9']);
	});
});
