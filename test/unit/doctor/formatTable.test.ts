import { describe, expect, it } from 'vitest';
import { formatTable } from '../../../src/doctor/formatTable.js';

describe('formatTable', () => {
	it('pads every column to its widest cell, two spaces apart, without trailing spaces', () => {
		expect(
			formatTable([
				['bot', 'token', 'note'],
				['worker 10', 'ok', ''],
				['boss', 'REJECTED', 'x'],
			]),
		).toEqual(['bot        token     note', 'worker 10  ok', 'boss       REJECTED  x']);
	});
});
