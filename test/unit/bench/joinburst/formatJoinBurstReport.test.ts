import { describe, expect, it } from 'vitest';
import { buildJoinBurstResultsFile } from '../../../../bench/joinburst/buildJoinBurstResultsFile.js';
import { formatJoinBurstReport, p99Ratio } from '../../../../bench/joinburst/formatJoinBurstReport.js';
import { failedJoinBurstRun, type JoinBurstRunResult } from '../../../../bench/joinburst/JoinBurstRunResult.js';
import { JOIN_BURST_SCENARIO } from '../../../../bench/joinburst/JoinBurstScenario.js';

const run = (overrides: Partial<JoinBurstRunResult>): JoinBurstRunResult => ({
	label: 'massnick, 10 workers',
	workers: 10,
	status: 'measured',
	reason: null,
	joiners: 5000,
	timedOut: 5000,
	timedOutAgain: 0,
	outsideTouched: 0,
	outsideSample: [],
	burstSeconds: 59.9,
	p50Seconds: 230,
	p99Seconds: 470,
	maxSeconds: 480.2,
	drainedSeconds: 520,
	backlogStepSeconds: 5,
	backlog: [3, 300, 1200, 0],
	joinersPerWorker: [480, 520, 495, 505, 500, 490, 510, 500, 512, 488],
	requests: 5100,
	requestsByRoute: { 'PATCH /guilds/:id/members/:id 200': 5000 },
	rateLimited429: 0,
	machineBusy: 0.61,
	eventLoopDelay: { seconds: 25, meanMs: 1.2, p99Ms: 8.4, worstP99Ms: 21.6, maxMs: 30 },
	...overrides,
});

const many = run({});
const one = run({
	label: 'massnick, one token',
	workers: 1,
	joinersPerWorker: [5000],
	p50Seconds: 2400,
	p99Seconds: 4830,
	maxSeconds: 4900,
	drainedSeconds: 4960,
	backlog: [3, 360, 4000, 4990, 10, 0],
});
const rowOf = (report: string, label: string): string => report.split('\n').find((line) => line.startsWith(label))!;

describe('formatJoinBurstReport', () => {
	const report = formatJoinBurstReport(JOIN_BURST_SCENARIO, [many, one]);

	it('a row per subject: joiners timed out, p50, p99, the longest, the p99 against the first subject’s, the peak backlog, requests and 429s', () => {
		expect(rowOf(report, 'massnick, 10 workers')).toMatch(/5,000 of 5,000\s+230 s\s+470 s\s+480\.2 s\s+—\s+520 s\s+1,200\s+520\s+5,100\s+0\s+0\s+22 ms$/);
		expect(rowOf(report, 'massnick, one token')).toMatch(/2,400 s\s+4,830 s\s+4,900 s\s+×10\.3\s+4,960 s\s+4,990\s+5,000\s/);
	});

	it('says whether the bar is met, with the measured figures, and MISS when it is not', () => {
		expect(report).toContain('×10.3 (470 s against 4,830 s): PASS');
		const missed = formatJoinBurstReport(JOIN_BURST_SCENARIO, [many, run({ ...one, p99Seconds: 3000 })]);
		expect(missed).toContain('is NOT at least 8 times lower');
		expect(missed).toMatch(/×6\.4 .*: MISS/);
	});

	it('samples the backlog at moments after the first join, each subject’s last sample past its end', () => {
		const line = report.split('\n').find((text) => text.startsWith('15 s'))!;
		expect(line.trim().split(/\s+/)).toEqual(['15', 's', '0', '4,990']);
		expect(report.split('\n').find((text) => text.startsWith('30 s'))).toBeUndefined();
	});

	it('a failed run has no ratio, and says why', () => {
		const failed = failedJoinBurstRun({ label: 'massnick, one token', workers: 1, joiners: 5000, backlogStepSeconds: 5 }, 'the sandbox did not start');
		expect(p99Ratio(many, failed)).toBe(null);
		const text = formatJoinBurstReport(JOIN_BURST_SCENARIO, [many, failed]);
		expect(rowOf(text, 'massnick, one token')).toMatch(/0 of 5,000\s+—\s+—\s+—\s+—/);
		expect(text).toContain('massnick, one token: failed: the sandbox did not start');
		expect(text).not.toContain('PASS');
	});
});

describe('buildJoinBurstResultsFile', () => {
	const file = buildJoinBurstResultsFile(
		{ args: ['--scenario', 'join-burst'], startedAt: new Date(0), durationSeconds: 400, budgetSeconds: 720, loadAverageAtStart: 1.5, restOffsetMs: 2 },
		JOIN_BURST_SCENARIO,
		[many, one],
	);

	it('writes the measured ratio and whether it meets the bar, and each backlog on one line', () => {
		const parsed = JSON.parse(file) as { bar: { p99Ratios: Record<string, number>; met: boolean }; runs: Array<{ backlog: number[] }> };
		expect(parsed.bar).toMatchObject({ p99Ratios: { 'massnick, one token': 10.28 }, met: true });
		expect(parsed.runs[1]!.backlog).toEqual([3, 360, 4000, 4990, 10, 0]);
		expect(file).toContain('"backlog": [3, 360, 4000, 4990, 10, 0]');
		expect(file).toContain('"joinersPerWorker": [5000]');
	});
});
