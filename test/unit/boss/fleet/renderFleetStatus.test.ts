import { describe, expect, it } from 'vitest';
import { FleetTallies } from '../../../../src/boss/fleet/FleetTallies.js';
import { type FleetCountFacts, renderFleetStatus } from '../../../../src/boss/fleet/renderFleetStatus.js';
import { type FleetJob, groupFleetJobs } from '../../../../src/jobs/fleetJobs.js';
import type { Job } from '../../../../src/jobs/Job.js';
import type { JournalState } from '../../../../src/jobs/journal/Journal.js';
import { fleetFile } from '../../../support/fleetJournals.js';
import { expectWithinDiscordLimits, snapshot, worker } from '../../../support/statusFixtures.js';

/** A fleet job of `workers` workers whose parts are in `states` (worker i: `states[i]`, none past its end). */
function fleetJob(workers: number, states: readonly JournalState[], startedAt = '2026-12-01T10:00:00.000Z'): FleetJob {
	return groupFleetJobs(states.map((state, id) => fleetFile(`p${id}`, id, state, { workers, startedAt })))[0]!;
}

/** A count over `toDo.length` workers: worker i with `done` members done and `toDo[i]` to do. */
function counted(toDo: readonly number[], done = 1_000, overrides: Partial<FleetCountFacts> = {}): FleetCountFacts {
	const workers = toDo.map((left, index) =>
		worker(index, { changed: left, alreadyDone: done, cant: 1, skipped: 0, left: 0, failed: {}, failedTotal: 0, inFlight: 0 }),
	);
	return { snapshot: snapshot(workers), ended: true, countedAt: Date.parse('2026-12-01T11:00:00Z'), workerCount: toDo.length, ...overrides };
}

const description = (message: ReturnType<typeof renderFleetStatus>): string => message.embeds[0]!.description!;

describe('renderFleetStatus', () => {
	it("shows how far the job is in the live guild, each worker's part by its journal, and asks for a second count for the pace", () => {
		const message = renderFleetStatus(fleetJob(3, ['finished', 'running']), counted([0, 250, 0]));
		expect(message.embeds[0]!.title).toBe('Renaming to “Fleet {username}” · fleet of 3 workers · running');
		const text = description(message);
		expect(text).toMatch(/^`█+░*` \*\*92%\*\* · 3,000 of 3,250 done \(counted from the live server <t:\d+:T>\)/);
		expect(text).toContain('to do **250**');
		expect(text).toContain('journals: worker 0 finished · worker 1 running · worker 2 not started');
		expect(text).toContain('Pace: run /status again');
		expect(text).toMatch(/^\s+1\s+1,000\s+250\s+1\s+running$/m);
		expect(text).toMatch(/^\s+2\s+1,000\s+0\s+1\s+not started$/m);
		expect(message.components).toEqual([]);
	});

	it('says when an ended part still has members to do in the live guild, and that a rerun does only those', () => {
		const text = description(renderFleetStatus(fleetJob(3, ['finished', 'running', 'cancelled']), counted([4, 250, 1])));
		expect(text).toContain(
			'The parts of workers 0, 2 ended with 5 members still to do (joined after the listing passed, changed back since, or failed): run the job again and it does only those.',
		);
		expect(description(renderFleetStatus(fleetJob(3, ['finished', 'running', 'finished']), counted([0, 250, 0])))).not.toContain('still to do');
	});

	it('measures the pace between two counts and the time left at that pace', () => {
		const previous = { countId: 'c1', at: Date.parse('2026-12-01T10:50:00Z'), done: 2_400, toDo: 850 };
		const text = description(renderFleetStatus(fleetJob(3, ['running', 'running', 'running']), counted([0, 250, 0], 1_000, { previous })));
		// 600 more done in 600 s: 1.0/s, and 250 left take 4m 10s.
		expect(text).toMatch(/Pace: \+600 since the count <t:\d+:R> · \*\*1\.0\*\*\/s · ETA 4m 10s/);
	});

	it('says when nothing moved between two counts, and where to look', () => {
		const previous = { countId: 'c1', at: Date.parse('2026-12-01T10:50:00Z'), done: 3_000, toDo: 250 };
		const text = description(renderFleetStatus(fleetJob(3, ['running', 'running', 'running']), counted([0, 250, 0], 1_000, { previous })));
		expect(text).toContain('Pace: no member done since the count');
		expect(text).toContain("Are the fleet's processes running?");
		// A job whose parts have all ended is not expected to move.
		const ended = description(renderFleetStatus(fleetJob(3, ['finished', 'finished', 'finished']), counted([0, 250, 0], 1_000, { previous })));
		expect(ended).toContain('Pace: no member done since the count');
		expect(ended).not.toContain('Are the fleet');
	});

	it('shows the listing while the count runs, and a failed count plainly', () => {
		const job = fleetJob(2, ['running', 'running']);
		expect(description(renderFleetStatus(job, counted([5, 5], 10, { ended: false })))).toMatch(
			/^Counting from the live server… [\d,]+ members listed so far: 20 done, 10 to do\./,
		);
		const failed = description(renderFleetStatus(job, counted([5, 5], 10, { error: 'Listing the members failed: 503' })));
		expect(failed).toMatch(/^⚠️ Counting from the live server failed: Listing the members failed: 503/);
		expect(failed).not.toContain('Pace');
	});

	it('warns when the job split the guild otherwise than this boss', () => {
		const text = description(renderFleetStatus(fleetJob(4, ['running']), counted([1, 1, 1])));
		expect(text).toContain("splits the guild between 4 workers and this boss's WORKER_COUNT is 3");
		expect(text).toContain('Set WORKER_COUNT=4 here');
	});

	it('fits Discord with a hundred workers, showing first those with the most left', () => {
		const toDo = Array.from({ length: 100 }, (_, index) => (index === 77 ? 9_999 : index));
		const message = renderFleetStatus(
			fleetJob(
				100,
				Array.from({ length: 100 }, () => 'running'),
			),
			counted(toDo),
		);
		expectWithinDiscordLimits(message);
		const text = description(message);
		expect(text).toMatch(/^\s+77\s+1,000\s+9,999\s/m);
		expect(text).toMatch(/… and \d+ more workers: [\d,]+ to do between them/);
		expect(text).toContain('journals: workers 0–99 running');
	});
});

describe('FleetTallies', () => {
	const count = (id: string, alreadyDone: number, changed: number) => ({ id, progress: { snapshot: () => ({ alreadyDone, changed }) } }) as unknown as Job;

	it("keeps each fleet job's last count once, however many /status read it", () => {
		const tallies = new FleetTallies();
		const job = fleetJob(2, ['running', 'running']);
		expect(tallies.previous(job)).toBeUndefined();
		tallies.record(job, count('c1', 10, 90), 1_000);
		tallies.record(job, count('c1', 10, 90), 5_000);
		expect(tallies.previous(job)).toEqual({ countId: 'c1', at: 1_000, done: 10, toDo: 90 });
		tallies.record(job, count('c2', 50, 50), 9_000);
		expect(tallies.previous(job)?.done).toBe(50);
		// The same target run again later is another job, with no pace yet.
		expect(tallies.previous(fleetJob(2, ['running'], '2026-12-02T10:00:00.000Z'))).toBeUndefined();
	});

	it('forgets the oldest jobs past sixteen', () => {
		const tallies = new FleetTallies();
		const jobs = Array.from({ length: 17 }, (_, day) => fleetJob(1, ['running'], `2026-12-${String(day + 1).padStart(2, '0')}T10:00:00.000Z`));
		for (const [index, job] of jobs.entries()) tallies.record(job, count(`c${index}`, index, 1), index);
		expect(tallies.previous(jobs[0]!)).toBeUndefined();
		expect(tallies.previous(jobs[1]!)?.countId).toBe('c1');
		expect(tallies.previous(jobs[16]!)?.countId).toBe('c16');
	});
});
