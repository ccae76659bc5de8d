import { describe, expect, it } from 'vitest';
import { SnowflakeTable } from '../../../../src/jobs/journal/SnowflakeTable.js';

/** Distinct snowflakes that differ only in the timestamp, as one guild's members do. */
function id(n: number): string {
	return ((1_420_070_400_000n + BigInt(n) * 7919n) << 22n).toString();
}

describe('SnowflakeTable', () => {
	it('finds what was added, with the values set on its row', () => {
		const table = new SnowflakeTable(2);
		const row = table.add('175928847299117063');
		table.set(row, 0, 7);
		table.set(row, 1, 0xffff_ffff);
		expect(table.size).toBe(1);
		expect(table.find('175928847299117063')).toBe(row);
		expect([table.get(row, 0), table.get(row, 1)]).toEqual([7, 0xffff_ffff]);
	});

	it('an id that was never added is not found', () => {
		const table = new SnowflakeTable(1);
		expect(table.find('175928847299117063')).toBe(-1);
		table.add('175928847299117063');
		expect(table.find('175928847299117064')).toBe(-1);
		expect(table.find('81384788765712384')).toBe(-1);
	});

	it('adding an id twice keeps the first row and its values', () => {
		const table = new SnowflakeTable(1);
		const row = table.add(id(1));
		table.set(row, 0, 42);
		expect(table.add(id(1))).toBe(-1);
		expect(table.size).toBe(1);
		expect(table.get(table.find(id(1)), 0)).toBe(42);
	});

	it('a new row starts at zero', () => {
		const table = new SnowflakeTable(3);
		const row = table.add(id(1));
		expect([0, 1, 2].map((column) => table.get(row, column))).toEqual([0, 0, 0]);
	});

	it('200,000 ids survive many doublings of the slots and chunks of rows', () => {
		const table = new SnowflakeTable(1);
		for (let n = 0; n < 200_000; n++) table.set(table.add(id(n)), 0, n);
		expect(table.size).toBe(200_000);
		for (let n = 0; n < 200_000; n += 997) expect(table.get(table.find(id(n)), 0)).toBe(n);
		expect(table.find(id(200_000))).toBe(-1);
		for (let n = 0; n < 200_000; n += 1009) expect(table.add(id(n))).toBe(-1);
		expect(table.size).toBe(200_000);
	});

	it('gives ids back as they were written, in the order they were added', () => {
		const table = new SnowflakeTable(0);
		const ids = ['18446744073709551615', '0', '175928847299117063', '4294967296', '4294967295'];
		for (const each of ids) table.add(each);
		expect([...table.ids()]).toEqual(ids);
	});

	it('the ends of the 64-bit range are ids; the first number past it is not confused with 0', () => {
		const table = new SnowflakeTable(1);
		table.set(table.add('18446744073709551615'), 0, 1);
		table.set(table.add('18446744073709551616'), 0, 2);
		table.set(table.add('0'), 0, 3);
		expect(table.size).toBe(3);
		expect(table.get(table.find('18446744073709551615'), 0)).toBe(1);
		expect(table.get(table.find('18446744073709551616'), 0)).toBe(2);
		expect(table.get(table.find('0'), 0)).toBe(3);
	});

	it('ids that are not canonical numbers stay distinct strings', () => {
		const table = new SnowflakeTable(1);
		const ids = ['123', '0123', '+123', '123 ', '', 'abc', '１２３', '99999999999999999999999'];
		for (const [n, each] of ids.entries()) table.set(table.add(each), 0, n);
		expect(table.size).toBe(ids.length);
		for (const [n, each] of ids.entries()) {
			expect(table.get(table.find(each), 0)).toBe(n);
			expect(table.add(each)).toBe(-1);
		}
		expect([...table.ids()]).toEqual(ids);
		expect(table.find('00123')).toBe(-1);
	});

	it('other ids are kept through a growth of the slots', () => {
		const table = new SnowflakeTable(1);
		table.set(table.add('not-a-snowflake'), 0, 9);
		for (let n = 0; n < 5000; n++) table.add(id(n));
		expect(table.get(table.find('not-a-snowflake'), 0)).toBe(9);
		expect(table.find(id(4999))).toBe(5000);
	});
});
