import { parseRecord } from '../records.js';

/**
 * What the merged restore needs of a journal line without parsing it whole: whether it is an
 * original or a `left`, and whose. Lines are written with their keys in one order
 * (`originalLine`, `leftLine`), so the id is read straight from the bytes; a line that does not
 * start the usual way (hand-edited, or a format to come) goes through `JSON.parse` as ever.
 */

export type LineKind = 'original' | 'left' | 'other';

const ORIGINAL_PREFIX = Buffer.from('{"type":"original","id":"');
const LEFT_PREFIX = Buffer.from('{"type":"left","id":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The kind and member id of the line `bytes[start, end)` (no newline); `other` for anything else or a line that is not a record. */
export function peekLine(bytes: Buffer, start: number, end: number): { kind: LineKind; id: string } {
	for (const [prefix, kind] of [
		[ORIGINAL_PREFIX, 'original'],
		[LEFT_PREFIX, 'left'],
	] as const) {
		if (end - start <= prefix.length || bytes.compare(prefix, 0, prefix.length, start, start + prefix.length) !== 0) continue;
		const from = start + prefix.length;
		const close = bytes.indexOf(QUOTE, from);
		// An escape in the id: leave it to JSON.parse.
		if (close === -1 || close >= end || bytes.subarray(from, close).includes(BACKSLASH)) break;
		return { kind, id: bytes.toString('latin1', from, close) };
	}
	const record = parseRecord(bytes.toString('utf8', start, end));
	if (typeof record === 'string' || (record.type !== 'original' && record.type !== 'left')) return { kind: 'other', id: '' };
	return { kind: record.type, id: record.id };
}

const TWO_32 = 0x1_0000_0000;
const TWO_22 = 1 << 22;
const TWO_10 = 1 << 10;

/**
 * The worker of `id` among `workers` (as `workerIndexOf`: its 42-bit timestamp modulo the count),
 * or -1 for an id that is not an ordered snowflake: 17 to 20 digits without a leading zero,
 * below 2^64. Only those are in the listing's order; any other id is looked up by its string.
 * Doubles, not BigInt: every line of a run is read through this.
 */
export function partitionOf(id: string, workers: number): number {
	const length = id.length;
	if (length < 17 || length > 20 || id.charCodeAt(0) === 0x30) return -1;
	let high = 0;
	let low = 0;
	for (let i = 0; i < length; i++) {
		const digit = id.charCodeAt(i) - 0x30;
		if (digit < 0 || digit > 9) return -1;
		low = low * 10 + digit;
		const carry = Math.floor(low / TWO_32);
		low -= carry * TWO_32;
		high = high * 10 + carry;
		if (high >= TWO_32) return -1;
	}
	// id >> 22 is high * 2^10 + (low >> 22): below 2^42, exact in a double.
	return (high * TWO_10 + Math.floor(low / TWO_22)) % workers;
}

/** Orders two ordered snowflakes (see {@link partitionOf}) as numbers: a shorter one is smaller. */
export function compareIds(a: string, b: string): number {
	if (a.length !== b.length) return a.length - b.length;
	return a < b ? -1 : a > b ? 1 : 0;
}
