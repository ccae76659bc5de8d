import { describe, expect, it } from 'vitest';
import { joinLatencies } from '../../../../bench/joinburst/joinLatencies.js';
import { type JoinBurstRunInput, joinBurstRunResult } from '../../../../bench/joinburst/JoinBurstRunResult.js';

/** 100 joiners, one every 10 ms from 0; joiner n timed out at 10 n + 5 (n + 1) ms. */
const joins = new Map(Array.from({ length: 100 }, (_, n) => [String(n), n * 10] as const));
const timeouts = Array.from({ length: 100 }, (_, n) => ({ targetId: String(n), at: n * 10 + 5 * (n + 1) }));

const input = (overrides: Partial<JoinBurstRunInput> = {}): JoinBurstRunInput => ({
	label: 'massnick, 10 workers',
	workers: 10,
	timeScale: 20,
	backlogStepSeconds: 5,
	joiners: 100,
	latencies: joinLatencies(joins, timeouts),
	timedOutInGuild: 100,
	outsideInGuild: [],
	firstJoinAt: 0,
	lastJoinAt: 990,
	joinersPerWorker: [10, 10, 10, 10, 10, 10, 10, 10, 10, 10],
	requests: 104,
	requestsByRoute: {},
	rateLimited429: 0,
	machineBusy: 0.5,
	eventLoopDelay: null,
	...overrides,
});

describe('joinBurstRunResult', () => {
	it('gives p50, p99 and the longest on Discord’s clock: the sandbox’s milliseconds × the time scale', () => {
		const result = joinBurstRunResult(input());
		expect(result.status).toBe('measured');
		// Latencies 5, 10, … 500 ms: the 50th is 250 ms, the 99th 495 ms; × 20.
		expect([result.p50Seconds, result.p99Seconds, result.maxSeconds]).toEqual([5, 9.9, 10]);
		expect(result.burstSeconds).toBe(19.8);
		expect(result.drainedSeconds).toBe(29.8);
		// Every 5 Discord seconds is every 250 ms here.
		expect(result.backlog[0]).toBe(1);
		expect(result.backlog.at(-1)).toBe(0);
		expect(result.backlog).toHaveLength(Math.ceil(1490 / 250) + 1);
	});

	it('fails a run that left a joiner, timed one out twice or touched anyone else, saying which', () => {
		expect(joinBurstRunResult(input({ latencies: joinLatencies(joins, timeouts.slice(1)) })).reason).toBe('timed out 99 of 100 joiners');
		expect(joinBurstRunResult(input({ timedOutInGuild: 98 })).reason).toBe('timed out 98 of 100 joiners');
		expect(joinBurstRunResult(input({ latencies: joinLatencies(joins, [...timeouts, { targetId: '3', at: 5000 }]) })).reason).toBe(
			'timed out 1 joiners more than once',
		);
		const outside = joinBurstRunResult(input({ outsideInGuild: ['777'], latencies: joinLatencies(joins, [...timeouts, { targetId: '778', at: 10 }]) }));
		expect([outside.status, outside.reason, outside.outsideTouched, outside.outsideSample]).toEqual([
			'failed',
			'timed out 2 members outside the burst',
			2,
			['777', '778'],
		]);
	});

	it('a joiner never timed out stays in the backlog to its end', () => {
		const result = joinBurstRunResult(input({ latencies: joinLatencies(joins, timeouts.slice(1)) }));
		expect(result.backlog.at(-1)).toBe(1);
	});
});
