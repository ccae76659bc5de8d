import { describe, expect, it } from 'vitest';
import { followedKey, FollowingPace } from '../../../src/present/index.js';

describe('FollowingPace', () => {
	it('nothing changed: never due, however long it has been (an idle rule shows nothing new)', () => {
		const pace = new FollowingPace(60_000);
		pace.shown('10/10', 0);
		for (const now of [1_000, 60_000, 3_600_000, 30 * 86_400_000]) expect(pace.due('10/10', now)).toBe(false);
	});

	it('changed: due once everyMs has passed since it was last shown, not before', () => {
		const pace = new FollowingPace(60_000);
		pace.shown('10/10', 0);
		expect(pace.due('11/11', 59_999)).toBe(false);
		expect(pace.due('11/11', 60_000)).toBe(true);
		pace.shown('11/11', 60_000);
		expect(pace.due('12/11', 61_000)).toBe(false);
	});

	it('a burst of changes is shown at most once every everyMs: 1,000 joiners over ten minutes give ten shows', () => {
		const pace = new FollowingPace(60_000);
		pace.shown('0/0', 0);
		let shows = 0;
		for (let joined = 1; joined <= 1_000; joined++) {
			const now = joined * 600;
			const key = followedKey({ total: joined, done: joined });
			if (pace.due(key, now)) {
				pace.shown(key, now);
				shows++;
			}
		}
		expect(shows).toBe(10);
	});

	it('with idleEveryMs it is due that long after the last show even with nothing new (a log’s sign of life)', () => {
		const pace = new FollowingPace(60_000, 3_600_000);
		pace.shown('5/5', 0);
		expect(pace.due('5/5', 3_599_999)).toBe(false);
		expect(pace.due('5/5', 3_600_000)).toBe(true);
	});

	it('due at once before anything was shown', () => {
		expect(new FollowingPace(60_000).due('0/0', 0)).toBe(true);
	});

	it('the key moves with the members handed out and with their outcomes', () => {
		expect(followedKey({ total: 3, done: 2 })).not.toBe(followedKey({ total: 3, done: 3 }));
		expect(followedKey({ total: 3, done: 3 })).not.toBe(followedKey({ total: 4, done: 3 }));
	});
});
