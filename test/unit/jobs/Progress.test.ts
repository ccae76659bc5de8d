import { describe, expect, it } from 'vitest';
import { Progress } from '../../../src/jobs/Progress.js';

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2021, 3, 1)) {
	let now = start;
	return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('Progress', () => {
	it('counts each outcome per worker and adds them up across workers', () => {
		const time = clock();
		const progress = new Progress(2, time.now);
		for (let i = 0; i < 5; i++) progress.assigned(0);
		for (let i = 0; i < 3; i++) progress.assigned(1);
		const a = progress.reporter(0);
		const b = progress.reporter(1);
		a.outcome('changed');
		a.outcome('changed');
		a.outcome('alreadyDone');
		a.failed('missing-permissions');
		b.outcome('cant');
		b.outcome('skipped');
		b.outcome('left');
		const snapshot = progress.snapshot();
		expect(snapshot.workers[0]).toMatchObject({ index: 0, inSlice: 5, changed: 2, alreadyDone: 1, failedTotal: 1, done: 4 });
		expect(snapshot.workers[1]).toMatchObject({ index: 1, inSlice: 3, cant: 1, skipped: 1, left: 1, done: 3 });
		expect(snapshot).toMatchObject({
			total: 8,
			done: 7,
			remaining: 1,
			changed: 2,
			alreadyDone: 1,
			cant: 1,
			skipped: 1,
			left: 1,
			failed: 1,
			failedByReason: { 'missing-permissions': 1 },
		});
	});

	it('failures are kept by reason and summed across workers', () => {
		const progress = new Progress(3, clock().now);
		progress.reporter(0).failed('timeout');
		progress.reporter(1).failed('timeout');
		progress.reporter(2).failed('http-502');
		expect(progress.snapshot().failedByReason).toEqual({ timeout: 2, 'http-502': 1 });
		expect(progress.snapshot().workers[0]!.failed).toEqual({ timeout: 1 });
	});

	it('tells each outcome and failure as an event as it is counted, with the worker’s id among the fleet', () => {
		const told: string[] = [];
		const progress = new Progress([3, 7], clock().now);
		progress.on('outcome', (worker, outcome) => told.push(`${worker} ${outcome}`));
		progress.on('failure', (worker, reason) => told.push(`${worker} failed ${reason}`));
		progress.reporter(7).outcome('changed');
		progress.reporter(3).outcome('alreadyDone');
		progress.reporter(7).failed('http-502');
		progress.reporter(3).inFlight(1);
		expect(told).toEqual(['7 changed', '3 alreadyDone', '7 failed http-502']);
		expect(progress.snapshot().workers.map((worker) => [worker.index, worker.changed, worker.failedTotal])).toEqual([
			[3, 0, 0],
			[7, 1, 1],
		]);
	});

	it('what a worker was handed and has neither done nor sent is queued', () => {
		const progress = new Progress([2], clock().now);
		for (let i = 0; i < 10; i++) progress.assigned(2);
		const reporter = progress.reporter(2);
		reporter.outcome('changed');
		reporter.failed('timeout');
		reporter.inFlight(3);
		expect(progress.snapshot().workers[0]!.queued).toBe(5);
		reporter.inFlight(-3);
		for (let i = 0; i < 3; i++) reporter.outcome('changed');
		expect(progress.snapshot().workers[0]!.queued).toBe(5);
	});

	it('in-flight renames go up and down', () => {
		const progress = new Progress(1, clock().now);
		const reporter = progress.reporter(0);
		reporter.inFlight(3);
		reporter.inFlight(-1);
		expect(progress.snapshot().inFlight).toBe(2);
	});

	it('the rate is renames per second over the last 30 seconds', () => {
		const time = clock();
		const progress = new Progress(1, time.now);
		for (let i = 0; i < 1000; i++) progress.assigned(0);
		const reporter = progress.reporter(0);
		// 10 renames a second for a minute.
		for (let second = 0; second < 60; second++) {
			for (let i = 0; i < 10; i++) reporter.outcome('changed');
			time.advance(1000);
		}
		expect(progress.snapshot().rate).toBeCloseTo(10, 0);
		// Then nothing for 40 s: the window empties.
		time.advance(40_000);
		expect(progress.snapshot().rate).toBe(0);
	});

	it('a young job shows its real rate, not a thirtieth of it', () => {
		const time = clock();
		const progress = new Progress(1, time.now);
		const reporter = progress.reporter(0);
		time.advance(2000);
		for (let i = 0; i < 20; i++) reporter.outcome('changed');
		expect(progress.snapshot().rate).toBeCloseTo(10, 0);
	});

	it('only renames make the rate: done and skipped members are instant', () => {
		const time = clock();
		const progress = new Progress(1, time.now);
		time.advance(5000);
		for (let i = 0; i < 100; i++) progress.reporter(0).outcome('alreadyDone');
		expect(progress.snapshot().rate).toBe(0);
	});

	it('the ETA is what is left over the rate', () => {
		const time = clock();
		const progress = new Progress(2, time.now);
		for (let i = 0; i < 300; i++) progress.assigned(i % 2);
		progress.listingFinished();
		for (let second = 0; second < 30; second++) {
			for (let i = 0; i < 2; i++) progress.reporter(0).outcome('changed');
			for (let i = 0; i < 2; i++) progress.reporter(1).outcome('changed');
			time.advance(1000);
		}
		const snapshot = progress.snapshot();
		expect(snapshot.remaining).toBe(180);
		expect(snapshot.rate).toBeCloseTo(4, 0);
		expect(snapshot.etaMs! / 1000).toBeCloseTo(45, -1);
		expect(snapshot.workers[0]!.etaMs! / 1000).toBeCloseTo(45, -1);
	});

	it('with no rate the ETA is unknown (null), never Infinity or NaN', () => {
		const time = clock();
		const progress = new Progress(2, time.now);
		progress.assigned(0);
		progress.listingFinished();
		const snapshot = progress.snapshot();
		expect(snapshot.rate).toBe(0);
		expect(snapshot.etaMs).toBeNull();
		expect(snapshot.workers[0]!.etaMs).toBeNull();
		expect(Number.isNaN(snapshot.workers[1]!.rate)).toBe(false);
	});

	it('an empty job is all zeros, with nothing left', () => {
		const progress = new Progress(3, clock().now);
		progress.listingFinished();
		expect(progress.snapshot()).toMatchObject({ total: 0, done: 0, remaining: 0, rate: 0, etaMs: 0 });
	});

	it('elapsed time runs until the job ends, then stops', () => {
		const time = clock();
		const progress = new Progress(1, time.now);
		time.advance(5000);
		expect(progress.snapshot().elapsedMs).toBe(5000);
		progress.end();
		time.advance(60_000);
		expect(progress.snapshot().elapsedMs).toBe(5000);
		expect(progress.snapshot().rate).toBe(0);
	});

	it('the listing state is reported, so a partial total can be shown as such', () => {
		const progress = new Progress(1, clock().now);
		expect(progress.snapshot().listingDone).toBe(false);
		progress.listingFinished();
		expect(progress.snapshot().listingDone).toBe(true);
	});

	it('a snapshot is a copy: later counts do not change it', () => {
		const progress = new Progress(1, clock().now);
		const before = progress.snapshot();
		progress.reporter(0).failed('timeout');
		progress.assigned(0);
		expect(before.workers[0]!.failed).toEqual({});
		expect(before.workers[0]!.inSlice).toBe(0);
	});

	it('an unknown worker is refused', () => {
		expect(() => new Progress(2, clock().now).reporter(2)).toThrow(RangeError);
	});
});

describe('Progress while the listing runs', () => {
	it('a job caught up with the listing has no ETA yet, rather than 0', () => {
		const time = clock();
		const progress = new Progress(1, time.now);
		progress.assigned(0);
		time.advance(1000);
		progress.reporter(0).outcome('changed');
		expect(progress.snapshot()).toMatchObject({ remaining: 0, etaMs: null });
		progress.listingFinished();
		expect(progress.snapshot().etaMs).toBe(0);
	});

	it('knows workers by their ids: a process holding workers 3 and 7 counts them, and members of others apart', () => {
		const time = clock();
		const progress = new Progress([3, 7], time.now);
		progress.assigned(3);
		progress.assigned(7);
		progress.reporter(7).outcome('changed');
		progress.elsewhere();
		progress.elsewhere();
		const snapshot = progress.snapshot();
		expect(snapshot.workers.map((worker) => [worker.index, worker.inSlice, worker.changed])).toEqual([
			[3, 1, 0],
			[7, 1, 1],
		]);
		expect(snapshot).toMatchObject({ total: 2, done: 1, remaining: 1, elsewhere: 2 });
		expect(() => progress.assigned(0)).toThrow(RangeError);
	});
});
