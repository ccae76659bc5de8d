import { describe, expect, it } from 'vitest';
import { CompactRestoreIndex } from '../../../../src/jobs/journal/RestoreIndex.js';

const ALICE = '175928847299117063';
const BOB = '81384788765712384';

describe('CompactRestoreIndex', () => {
	it('gives back each entry, null names included', () => {
		const index = new CompactRestoreIndex();
		index.add({ id: ALICE, from: 'ally', to: '🎃 Alice' });
		index.add({ id: BOB, from: null, to: null });
		expect(index.size).toBe(2);
		expect(index.get(ALICE)).toEqual({ id: ALICE, from: 'ally', to: '🎃 Alice' });
		expect(index.get(BOB)).toEqual({ id: BOB, from: null, to: null });
	});

	it('an id never journaled has no entry', () => {
		const index = new CompactRestoreIndex();
		index.add({ id: ALICE, from: null, to: 'x' });
		expect(index.get(BOB)).toBeUndefined();
	});

	it('the first entry for an id wins, from and to alike', () => {
		const index = new CompactRestoreIndex();
		expect(index.add({ id: ALICE, from: 'ally', to: '🎃 Alice' })).toBe(true);
		expect(index.add({ id: ALICE, from: '🎃 Alice', to: '🎃 Alice W.' })).toBe(false);
		expect(index.get(ALICE)).toEqual({ id: ALICE, from: 'ally', to: '🎃 Alice' });
		expect(index.size).toBe(1);
	});

	it('lists its ids in journal order', () => {
		const index = new CompactRestoreIndex();
		for (const id of [BOB, ALICE, 'not-a-snowflake']) index.add({ id, from: null, to: 'x' });
		expect([...index.keys()]).toEqual([BOB, ALICE, 'not-a-snowflake']);
	});

	it('a forgotten member has no entry and is not listed, until an entry comes anew', () => {
		const index = new CompactRestoreIndex();
		index.add({ id: ALICE, from: 'ally', to: 'x' });
		index.add({ id: BOB, from: null, to: 'x' });
		expect(index.forget(ALICE)).toBe(true);
		expect([index.get(ALICE), index.has(ALICE), index.size, [...index.keys()]]).toEqual([undefined, false, 1, [BOB]]);
		expect(index.add({ id: ALICE, from: null, to: 'y' })).toBe(true);
		expect(index.get(ALICE)).toEqual({ id: ALICE, from: null, to: 'y' });
		expect(index.size).toBe(2);
	});

	it('walks its entries in id order as numbers, as often as asked, without those forgotten since', () => {
		const index = new CompactRestoreIndex();
		// As strings BOB (17 digits) sorts after ALICE (18); as numbers before.
		for (const id of [ALICE, 'not-a-snowflake', BOB, '18446744073709551615', '1']) index.add({ id, from: null, to: 'x' });
		const ordered = index.inIdOrder();
		expect([...ordered].map((entry) => entry.id)).toEqual(['1', BOB, ALICE, '18446744073709551615', 'not-a-snowflake']);
		index.forget(BOB);
		expect([...ordered].map((entry) => entry.id)).toEqual(['1', ALICE, '18446744073709551615', 'not-a-snowflake']);
	});
});
