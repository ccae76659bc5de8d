import { describe, expect, it } from 'vitest';
import { OriginalIndex } from '../../../../src/jobs/journal/OriginalIndex.js';

const ALICE = '175928847299117063';
const BOB = '81384788765712384';

describe('OriginalIndex', () => {
	it('tells a member without a nickname (null) from one never journaled (undefined)', () => {
		const index = new OriginalIndex();
		index.add(ALICE, null);
		expect(index.originalOf(ALICE)).toBeNull();
		expect(index.has(ALICE)).toBe(true);
		expect(index.originalOf(BOB)).toBeUndefined();
		expect(index.has(BOB)).toBe(false);
	});

	it('the first original wins', () => {
		const index = new OriginalIndex();
		expect(index.add(ALICE, 'ally')).toBe(true);
		expect(index.add(ALICE, '🎃 ally')).toBe(false);
		expect(index.add(ALICE, null)).toBe(false);
		expect(index.originalOf(ALICE)).toBe('ally');
		expect(index.size).toBe(1);
	});

	it('a first original of null is not replaced by a later nickname', () => {
		const index = new OriginalIndex();
		index.add(BOB, null);
		index.add(BOB, 'bobby');
		expect(index.originalOf(BOB)).toBeNull();
	});

	it('a forgotten member is journaled no more, and their next original is their first anew', () => {
		const index = new OriginalIndex();
		index.add(ALICE, 'ally');
		index.add(BOB, null);
		expect(index.forget(ALICE)).toBe(true);
		expect(index.forget(ALICE)).toBe(false);
		expect(index.forget('1')).toBe(false);
		expect([index.has(ALICE), index.originalOf(ALICE), index.size]).toEqual([false, undefined, 1]);
		expect(index.add(ALICE, null)).toBe(true);
		expect(index.add(ALICE, 'later')).toBe(false);
		expect([index.originalOf(ALICE), index.size]).toEqual([null, 2]);
	});
});
