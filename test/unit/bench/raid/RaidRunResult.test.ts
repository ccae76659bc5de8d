import { describe, expect, it } from 'vitest';
import type { RaidRequests } from '../../../../bench/raid/measureRaidRequests.js';
import { type RaidRunInput, raidRunResult } from '../../../../bench/raid/RaidRunResult.js';

const requests = (firstChangeAt: number, lastChangeAt: number): RaidRequests => ({
	firstChangeAt,
	lastChangeAt,
	changeRequests: 50,
	requests: 60,
	rateLimited429: 0,
	byRoute: {},
	writeTargets: [],
});

const input = (overrides: Partial<RaidRunInput>): RaidRunInput => ({
	operation: 'ban',
	subject: 'massnick',
	label: 'massnick /massban',
	tokens: 10,
	accounts: 10_000,
	done: 10_000,
	startedAt: 1_000_000,
	stoppedAt: null,
	requests: requests(1_004_000, 1_006_000),
	outsideRaid: [],
	machineBusy: 0.5,
	...overrides,
});

describe('raidRunResult', () => {
	it('a run that did every account is measured from go to its last change, not projected', () => {
		const result = raidRunResult(input({}));
		expect(result).toMatchObject({ status: 'measured', toLastMs: 6000, firstToLastMs: 2000, timeMs: 6000, projected: false, stoppedAtDeadline: false });
	});

	it('a baseline stopped at its deadline is projected over the whole span it ran, not to its last change', () => {
		// 900 of 10,000 in the 45 s it ran (its last change 44 s in): 10,000 take 500 s at that rate.
		const result = raidRunResult(input({ subject: 'zeppelin', tokens: 1, done: 900, stoppedAt: 1_045_000, requests: requests(1_000_100, 1_044_000) }));
		expect(result).toMatchObject({ status: 'measured', projected: true, ranMs: 45_000, timeMs: 500_000, toLastMs: 44_000, stoppedAtDeadline: true });
	});

	it('a run that left accounts without a deadline failed, and says how many it reached', () => {
		const result = raidRunResult(input({ done: 9_800 }));
		expect(result).toMatchObject({ status: 'failed', projected: false, timeMs: null, reason: 'reached 9800 of 10000 raid accounts' });
	});

	it('touching anyone outside the raid fails the run, whatever its time', () => {
		const result = raidRunResult(input({ outsideRaid: ['1', '2'] }));
		expect(result).toMatchObject({ status: 'failed', reason: 'touched 2 users outside the raid', outsideRaidTouched: 2, outsideRaidSample: ['1', '2'] });
	});

	it('a stopped baseline that did nothing is not projected', () => {
		const result = raidRunResult(input({ done: 0, stoppedAt: 1_045_000 }));
		expect(result).toMatchObject({ status: 'failed', projected: false, timeMs: null });
	});
});
