import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareSnowflakes } from '../../../../src/jobs/filters/compareSnowflakes.js';

describe('compareSnowflakes', () => {
	it('a shorter id is smaller, whatever its digits', () => {
		expect(compareSnowflakes('99999999999999999', '100000000000000000')).toBeLessThan(0);
		expect(compareSnowflakes('175928847299117063', '0')).toBeGreaterThan(0);
	});

	it('ids of one length order by their digits', () => {
		expect(compareSnowflakes('175928847299117063', '175928847299117064')).toBeLessThan(0);
		expect(compareSnowflakes('175928847299117063', '175928847299117063')).toBe(0);
		expect(compareSnowflakes('275928847299117063', '175928847299117063')).toBeGreaterThan(0);
	});

	it('orders any two 64-bit ids as BigInt does', () => {
		const id = fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 10n ** 16n, max: 10n ** 18n }));
		fc.assert(
			fc.property(id, id, (a, b) => {
				expect(Math.sign(compareSnowflakes(String(a), String(b)))).toBe(a < b ? -1 : a > b ? 1 : 0);
			}),
			{ seed: 20_160_430, numRuns: 2_000 },
		);
	});
});
