import { describe, expect, it } from 'vitest';
import { formatRaidReport, humanTime } from '../../../../bench/raid/formatRaidReport.js';
import { failedRaidRun, type RaidRunResult } from '../../../../bench/raid/RaidRunResult.js';
import { RAID_SCENARIO } from '../../../../bench/raid/RaidScenario.js';

const run = (overrides: Partial<RaidRunResult>): RaidRunResult => ({
	operation: 'ban',
	subject: 'massnick',
	label: 'massnick /massban',
	tokens: 10,
	status: 'measured',
	reason: null,
	accounts: 10_000,
	done: 10_000,
	stoppedAtDeadline: false,
	ranMs: null,
	toLastMs: 12_000,
	firstToLastMs: 1500,
	timeMs: 12_000,
	projected: false,
	requests: 210,
	changeRequests: 55,
	rateLimited429: 0,
	requestsByRoute: {},
	outsideRaidTouched: 0,
	outsideRaidSample: [],
	machineBusy: 0.5,
	...overrides,
});

const massnick = run({});
const zeppelin = run({
	subject: 'zeppelin',
	label: 'Zeppelin-style: one at a time',
	tokens: 1,
	done: 2250,
	stoppedAtDeadline: true,
	ranMs: 45_000,
	toLastMs: 44_950,
	timeMs: 200_000,
	projected: true,
	requests: 2250,
});
const rowOf = (report: string, label: string): string => report.split('\n').find((line) => line.startsWith('ban') && line.includes(label))!;

describe('formatRaidReport', () => {
	const report = formatRaidReport(RAID_SCENARIO, [massnick, zeppelin]);

	it('a measured row: every account, its time, its changes’ own span, the time on Discord’s windows, its rate, requests and 429s', () => {
		const row = rowOf(report, 'massnick /massban');
		expect(row.split(/\s{2,}/)).toEqual(['ban', 'massnick /massban', '10', '10,000', '12.0 s', '1.5 s', '2.0 min', '—', '833', '210', '0', '0']);
	});

	it('a baseline stopped at its deadline is marked projected in every figure it could not finish, with its rate over what it ran', () => {
		const row = rowOf(report, 'Zeppelin');
		// 200 s at 10x is 2,000 s on Discord's windows; 200 s / 12 s is x17.
		expect(row.split(/\s{2,}/)).toEqual([
			'ban',
			'Zeppelin-style: one at a time',
			'1',
			'2,250 of 10,000*',
			'≈200.0 s*',
			'—',
			'≈33 min*',
			'×17',
			'50',
			'2,250*',
			'0*',
			'0',
		]);
		expect(report).toContain('* stopped at its 45-s deadline: the time is projected');
	});

	it('a failed run says why under the table, and has no ratio against it', () => {
		const failed = failedRaidRun(
			{ operation: 'ban', subject: 'massnick', label: 'massnick /massban', tokens: 10, accounts: 10_000 },
			'massnick did not write "finished"',
		);
		const text = formatRaidReport(RAID_SCENARIO, [failed, zeppelin]);
		expect(text).toContain('ban, massnick /massban: failed: massnick did not write "finished"');
		expect(rowOf(text, 'Zeppelin').split(/\s{2,}/)[7]).toBe('—');
	});
});

describe('humanTime', () => {
	it.each([
		[4_200, '4.2 s'],
		[42_000, '42 s'],
		[420_000, '7.0 min'],
		[4_200_000, '70 min'],
		[10_080_000, '2.8 h'],
	])('%i ms reads %s', (ms, text) => {
		expect(humanTime(ms)).toBe(text);
	});
});
