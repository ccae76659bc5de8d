import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../../bench/parseBenchArgs.js';
import { benchResultsFile } from '../../../bench/paths.js';
import { JOIN_BURST_SCENARIO } from '../../../bench/joinburst/JoinBurstScenario.js';
import { RAID_SCENARIO } from '../../../bench/raid/RaidScenario.js';

describe('parseBenchArgs and the raid scenario', () => {
	it('a default run leaves the raid out: it is opt-in', () => {
		const parsed = parseBenchArgs([]);
		expect(parsed.raid).toBe(null);
		expect(parsed.scenarios.map((scenario) => scenario.name)).not.toContain('raid');
	});

	it('--scenario raid alone runs the issue’s raid, writes bench/results-raid.json and promises 12 minutes', () => {
		const parsed = parseBenchArgs(['--scenario', 'raid']);
		expect(parsed.raid).toEqual(RAID_SCENARIO);
		expect(parsed.raid).toMatchObject({ members: 100_000, raidAccounts: 10_000, workers: 10 });
		expect(parsed.scenarios).toEqual([]);
		expect(parsed.out).toBe(benchResultsFile('results-raid.json'));
		expect(parsed.budgetSeconds).toBe(720);
	});

	it('--members sizes the guild, the raid a tenth of it under 100,000, and the results go to the ignored local file', () => {
		const parsed = parseBenchArgs(['--scenario', 'raid', '--members', '20000']);
		expect(parsed.raid).toMatchObject({ name: 'raid@20000', members: 20_000, raidAccounts: 2000, realJoiners: 200 });
		expect(parsed.out).toBe(undefined);
		expect(parsed.mode).toBe('custom');
		expect(parseBenchArgs(['--scenario', 'raid', '--members', '500000']).raid).toMatchObject({ raidAccounts: 10_000, realJoiners: 1000 });
	});

	it('--window is how long each baseline runs, and the budget grows by six of each second more', () => {
		const parsed = parseBenchArgs(['--scenario', 'raid', '--window', '60']);
		expect(parsed.raid?.baselineSeconds).toBe(60);
		expect(parsed.budgetSeconds).toBe(720 + 6 * 15);
		expect(parseBenchArgs(['--scenario', 'raid', '--window', '10']).budgetSeconds).toBe(720);
	});

	it.each([
		[['--scenario', 'raid', '--scenario', '20k'], /runs alone/],
		[['--scenario', 'raid', '--subjects', 'massnick'], /--subjects does not apply/],
		[['--scenario', 'raid', '--members', '999'], /at least 1000/],
		[['--scenario', 'raid', '--window', '0'], /--window must be a positive whole number/],
	])('refuses %j, saying why', (args, message) => {
		expect(() => parseBenchArgs(args)).toThrow(message);
	});
});

describe('parseBenchArgs and the join-burst scenario', () => {
	it('a default run leaves the join burst out: it is opt-in', () => {
		const parsed = parseBenchArgs([]);
		expect(parsed.joinBurst).toBe(null);
		expect(parseBenchArgs(['--scenario', 'raid']).joinBurst).toBe(null);
	});

	it('--scenario join-burst alone runs the issue’s burst with 10 workers and one token, and writes bench/results-join-burst.json', () => {
		const parsed = parseBenchArgs(['--scenario', 'join-burst']);
		expect(parsed.joinBurst).toEqual(JOIN_BURST_SCENARIO);
		expect(parsed.joinBurst).toMatchObject({ members: 100_000, joiners: 5000, burstSeconds: 60 });
		expect(parsed.joinBurst?.subjects.map((subject) => subject.workers)).toEqual([10, 1]);
		expect([parsed.raid, parsed.scenarios]).toEqual([null, []]);
		expect(parsed.out).toBe(benchResultsFile('results-join-burst.json'));
	});

	it('--members sizes the guild, the burst a twentieth of it under 100,000, and the results go to the ignored local file', () => {
		const parsed = parseBenchArgs(['--scenario', 'join-burst', '--members', '20000']);
		expect(parsed.joinBurst).toMatchObject({ name: 'join-burst@20000', members: 20_000, joiners: 1000 });
		expect(parsed.out).toBe(undefined);
		expect(parseBenchArgs(['--scenario', 'join-burst', '--members', '500000']).joinBurst).toMatchObject({ joiners: 5000 });
	});

	it.each([
		[['--scenario', 'join-burst', '--scenario', 'raid'], /runs alone/],
		[['--scenario', 'join-burst', '--scenario', '20k'], /runs alone/],
		[['--scenario', 'join-burst', '--subjects', 'massnick'], /--subjects does not apply/],
		[['--scenario', 'join-burst', '--window', '30'], /--window does not apply/],
		[['--scenario', 'join-burst', '--members', '999'], /at least 1000/],
	])('refuses %j, saying why', (args, message) => {
		expect(() => parseBenchArgs(args)).toThrow(message);
	});
});
