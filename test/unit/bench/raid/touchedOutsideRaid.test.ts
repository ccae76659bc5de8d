import { describe, expect, it } from 'vitest';
import type { GuildSnapshot } from '../../../../bench/raid/GuildSnapshot.js';
import { touchedOutsideRaid } from '../../../../bench/raid/touchedOutsideRaid.js';

const snapshot = (members: Record<string, number | null>, banned: string[] = []): GuildSnapshot => ({
	at: 0,
	members: new Map(Object.entries(members)),
	banned: new Set(banned),
});
const raid = new Set(['r1', 'r2']);
const before = snapshot({ a: null, b: 5000, r1: null, r2: null }, ['old']);

describe('touchedOutsideRaid', () => {
	it('a cleanup that banned the raid alone touched nobody else', () => {
		expect(touchedOutsideRaid(before, snapshot({ a: null, b: 5000 }, ['old', 'r1', 'r2']), raid, ['r1', 'r2'])).toEqual([]);
	});

	it.each<[string, GuildSnapshot, string[]]>([
		['a member gone', snapshot({ b: 5000, r1: null, r2: null }, ['old']), []],
		['a member banned', snapshot({ a: null, b: 5000 }, ['old', 'a', 'r1', 'r2']), []],
		['a member timed out', snapshot({ a: 9000, b: 5000, r1: 9000, r2: 9000 }, ['old']), []],
		['an earlier ban lifted', snapshot({ a: null, b: 5000, r1: null, r2: null }), []],
		['a request naming someone else', snapshot({ a: null, b: 5000, r1: null, r2: null }, ['old']), ['a']],
	])('%s is caught', (_, after, writes) => {
		expect(touchedOutsideRaid(before, after, raid, writes).length).toBeGreaterThan(0);
	});

	it('names each user once, sorted', () => {
		expect(touchedOutsideRaid(before, snapshot({ b: 6000 }, ['old', 'a']), raid, ['a', 'b'])).toEqual(['a', 'b']);
	});
});
