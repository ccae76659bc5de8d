import { describe, expect, it } from 'vitest';
import { timestampToSnowflake } from '../../../src/discord/snowflake.js';
import { ErrorCodes, MassnickError } from '../../../src/errors.js';
import { workerIndexOf } from '../../../src/workers/partition.js';

/** A deterministic PRNG (mulberry32), so the split test is the same on every run. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('workerIndexOf', () => {
	it.each([
		// (175928847299117063 >> 22) = 41944705796; its residues:
		['175928847299117063', 10, 6],
		['175928847299117063', 1, 0],
		['175928847299117063', 3, 41944705796 % 3],
		['175928847299117063', 7, 41944705796 % 7],
		['81384788765712384', 10, Number((81384788765712384n >> 22n) % 10n)],
	])('member %s among %i workers belongs to worker %i', (id, count, expected) => {
		expect(workerIndexOf(id, count)).toBe(expected);
	});

	it('the low 22 bits (worker, process, increment) never change the owner', () => {
		const base = 175928847298985984n; // the example's millisecond with the low bits cleared
		for (const low of [0n, 1n, 0xfffn, 0x1f000n, 0x3e0000n, (1n << 22n) - 1n]) {
			expect(workerIndexOf(base | low, 10)).toBe(6);
		}
	});

	it('a string and a bigint id give the same worker', () => {
		expect(workerIndexOf(175928847299117063n, 10)).toBe(workerIndexOf('175928847299117063', 10));
	});

	it('slices taken by each worker alone are disjoint and cover every member', () => {
		const next = random(1);
		const members = Array.from({ length: 2000 }, () => randomId(next).toString());
		for (const count of [1, 2, 3, 10, 50]) {
			// Each worker filters the whole list by itself, as in the original design.
			const slices = Array.from({ length: count }, (_, worker) => members.filter((id) => workerIndexOf(id, count) === worker));
			const owned = slices.flat();
			expect(owned).toHaveLength(members.length);
			expect(new Set(owned).size).toBe(members.length);
		}
	});

	it('the owner is deterministic: the same id always maps to the same worker', () => {
		const next = random(7);
		const ids = Array.from({ length: 500 }, () => randomId(next));
		const first = ids.map((id) => workerIndexOf(id, 10));
		const second = ids.map((id) => workerIndexOf(id.toString(), 10));
		expect(second).toEqual(first);
		expect(new Set(first).size).toBe(10);
	});

	it('10,000 ids with random creation times split evenly over 10 workers (each within ±15%)', () => {
		const next = random(42);
		const counts = Array.from({ length: 10 }, () => 0);
		for (let i = 0; i < 10_000; i++) counts[workerIndexOf(randomId(next), 10)]!++;
		for (const count of counts) {
			expect(count).toBeGreaterThanOrEqual(850);
			expect(count).toBeLessThanOrEqual(1150);
		}
		expect(counts.reduce((a, b) => a + b)).toBe(10_000);
	});

	it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s workers', (count) => {
		expect(() => workerIndexOf('175928847299117063', count)).toThrow(expect.objectContaining({ code: ErrorCodes.InvalidArgument }) as MassnickError);
	});

	it.each(['abc', '', '12345', '-175928847299117063', ' 175928847299117063'])('refuses the id %j', (id) => {
		expect(() => workerIndexOf(id, 10)).toThrow(expect.objectContaining({ code: ErrorCodes.InvalidSnowflake }) as MassnickError);
	});

	it('refuses a bigint that is no snowflake', () => {
		expect(() => workerIndexOf(5n, 10)).toThrow(MassnickError);
	});
});

/** An id created at a random time between 2016 and 2025, with random low bits. */
function randomId(next: () => number): bigint {
	const from = Date.UTC(2016, 0, 1);
	const to = Date.UTC(2025, 0, 1);
	const ms = from + Math.floor(next() * (to - from));
	return timestampToSnowflake(ms) | BigInt(Math.floor(next() * 4194304));
}
