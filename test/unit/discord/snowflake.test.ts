import { describe, expect, it } from 'vitest';
import { DISCORD_EPOCH, isSnowflake, snowflakeToTimestamp, timestampToSnowflake } from '../../../src/discord/snowflake.js';

describe('snowflake', () => {
	it("reads Discord's documented example as 2016-04-30T11:18:25.796Z", () => {
		expect(new Date(snowflakeToTimestamp('175928847299117063')).toISOString()).toBe('2016-04-30T11:18:25.796Z');
		expect(snowflakeToTimestamp(175928847299117063n)).toBe(1462015105796);
	});

	it('the epoch is the first millisecond of 2015', () => {
		expect(new Date(Number(DISCORD_EPOCH)).toISOString()).toBe('2015-01-01T00:00:00.000Z');
	});

	it('a timestamp gives the smallest id of that millisecond', () => {
		const id = timestampToSnowflake(1462015105796);
		expect(id).toBe(175928847299117063n & ~((1n << 22n) - 1n));
		expect(id).toBe(175928847298985984n);
		expect(snowflakeToTimestamp(id)).toBe(1462015105796);
	});

	it('takes a Date, and drops fractions of a millisecond', () => {
		expect(timestampToSnowflake(new Date('2016-04-30T11:18:25.796Z'))).toBe(175928847298985984n);
		expect(timestampToSnowflake(1462015105796.9)).toBe(175928847298985984n);
	});

	it('refuses times before the epoch, and non-times', () => {
		expect(() => timestampToSnowflake(Number(DISCORD_EPOCH) - 1)).toThrow(RangeError);
		expect(() => timestampToSnowflake(Number.NaN)).toThrow(RangeError);
	});

	it('refuses ids outside 64 bits', () => {
		expect(() => snowflakeToTimestamp(-1n)).toThrow(RangeError);
		expect(() => snowflakeToTimestamp(1n << 64n)).toThrow(RangeError);
	});

	it.each([
		['175928847299117063', true],
		['81384788765712384', true], // 17 digits (2015)
		['18446744073709551615', true], // 2^64 - 1
		['18446744073709551616', false], // 2^64
		['1234567890123456', false], // 16 digits
		['123456789012345678901', false],
		[' 175928847299117063', false],
		['-175928847299117063', false],
		['17592884729911706x', false],
		['', false],
	])('isSnowflake(%j) is %s', (value, expected) => {
		expect(isSnowflake(value)).toBe(expected);
	});

	it('isSnowflake refuses non-strings', () => {
		expect(isSnowflake(175928847299117063n)).toBe(false);
		// biome-ignore lint/correctness/noPrecisionLoss: a number that lost its digits is what the check must refuse
		expect(isSnowflake(12345678901234567)).toBe(false);
		expect(isSnowflake(null)).toBe(false);
	});
});
