import { describe, expect, it } from 'vitest';
import { FollowedTally, MAX_FOLLOWED_WAITING } from '../../../../src/jobs/job/FollowedTally.js';
import { Progress } from '../../../../src/jobs/Progress.js';

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2026, 0, 1)) {
	let now = start;
	return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('FollowedTally', () => {
	it('counts the outcome of each member it tracks, and for a change the time from their event to its landing', () => {
		const time = clock();
		const tally = new FollowedTally(time.now);
		tally.track('1', time.now() - 400);
		tally.track('2', time.now());
		tally.track('3', time.now());
		tally.track('4', time.now());
		time.advance(1_000);
		expect(tally.settled('1', 'changed')).toBe(1_400);
		expect(tally.settled('2', 'aboveRequester')).toBeUndefined();
		expect(tally.settled('3', 'skipped')).toBeUndefined();
		expect(tally.settled('4', 'failed')).toBeUndefined();
		expect(tally.snapshot()).toEqual({ since: null, changed: 1, alreadyDone: 0, cant: 1, skipped: 1, left: 0, failed: 1, lastChangeAt: time.now() });
		expect(tally.waiting).toBe(0);
	});

	it('a member it does not track (listed by the sweep) is not counted', () => {
		const tally = new FollowedTally();
		expect(tally.settled('9', 'changed')).toBeUndefined();
		expect(tally.snapshot()).toMatchObject({ changed: 0, lastChangeAt: null });
	});

	it('a member handed again before their outcome keeps their first event, and is counted once', () => {
		const time = clock();
		const tally = new FollowedTally(time.now);
		tally.track('1', time.now());
		time.advance(500);
		tally.track('1', time.now());
		time.advance(500);
		expect(tally.settled('1', 'changed')).toBe(1_000);
		expect(tally.settled('1', 'alreadyDone')).toBeUndefined();
		expect(tally.snapshot()).toMatchObject({ changed: 1, alreadyDone: 0 });
	});

	it('a join Discord dates after our clock counts 0, never below', () => {
		const time = clock();
		const tally = new FollowedTally(time.now);
		tally.track('1', time.now() + 2_000);
		expect(tally.settled('1', 'changed')).toBe(0);
	});

	it('holds at most MAX_FOLLOWED_WAITING members: past it the oldest is let go uncounted', () => {
		const tally = new FollowedTally();
		for (let i = 0; i <= MAX_FOLLOWED_WAITING; i++) tally.track(String(i), 0);
		expect(tally.waiting).toBe(MAX_FOLLOWED_WAITING);
		expect(tally.settled('0', 'changed')).toBeUndefined();
		expect(tally.settled(String(MAX_FOLLOWED_WAITING), 'changed')).toBeDefined();
		tally.clear();
		expect(tally.waiting).toBe(0);
	});

	it('following is when the sweep ended, kept from the first call', () => {
		const time = clock();
		const tally = new FollowedTally(time.now);
		const start = time.now();
		tally.following();
		time.advance(60_000);
		tally.following();
		expect(tally.snapshot().since).toBe(start);
	});
});

describe('Progress.followed', () => {
	it('a tracked member’s change is told as a followed event with its worker and latency; a listed member’s is not', () => {
		const time = clock();
		const progress = new Progress([3, 5], time.now);
		const told: Array<[number, number]> = [];
		progress.on('followed', (worker, latencyMs) => told.push([worker, latencyMs]));
		progress.followed.track('joiner', time.now());
		time.advance(250);
		progress.reporter(5).outcome('changed', 'joiner');
		progress.reporter(3).outcome('changed', 'listed');
		progress.reporter(3).outcome('changed');
		expect(told).toEqual([[5, 250]]);
		expect(progress.snapshot().changed).toBe(3);
		expect(progress.followed.snapshot().changed).toBe(1);
	});

	it('a failure settles a tracked member as failed', () => {
		const progress = new Progress(1);
		progress.followed.track('joiner', 0);
		progress.reporter(0).failed('missing-permissions', 'joiner');
		expect(progress.followed.snapshot().failed).toBe(1);
		expect(progress.followed.waiting).toBe(0);
	});
});
