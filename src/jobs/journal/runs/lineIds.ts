import type { RestoreEntry, SlotValue } from '../../Plan.js';
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
	let from = idAfter(ORIGINAL_PREFIX, bytes, start, end);
	if (from >= 0) return { kind: 'original', id: bytes.toString('latin1', from, idEnd) };
	from = idAfter(LEFT_PREFIX, bytes, start, end);
	if (from >= 0) return { kind: 'left', id: bytes.toString('latin1', from, idEnd) };
	const record = parseRecord(bytes.toString('utf8', start, end));
	if (typeof record === 'string' || (record.type !== 'original' && record.type !== 'left')) return { kind: 'other', id: '' };
	return { kind: record.type, id: record.id };
}

/** Where the id of the original `bytes[start, end)` ends, after {@link originalIdAt} found it. */
export let idEnd = 0;

/**
 * Where the id of the original line `bytes[start, end)` starts, its end in {@link idEnd}, if the
 * line is written the usual way; -1 if it is not (another kind of line, or one for
 * {@link peekLine}). Allocates nothing: a cursor reads every line of its run through this.
 */
export function originalIdAt(bytes: Buffer, start: number, end: number): number {
	return idAfter(ORIGINAL_PREFIX, bytes, start, end);
}

function idAfter(prefix: Buffer, bytes: Buffer, start: number, end: number): number {
	const length = prefix.length;
	if (end - start <= length) return -1;
	for (let i = 0; i < length; i++) if (bytes[start + i] !== prefix[i]) return -1;
	const from = start + length;
	for (let i = from; i < end; i++) {
		const byte = bytes[i]!;
		if (byte === QUOTE) {
			idEnd = i;
			return from;
		}
		// An escape in the id: leave it to JSON.parse.
		if (byte === BACKSLASH) return -1;
	}
	return -1;
}

const TWO_22 = 1 << 22;
/** The largest snowflake, 2^64 - 1: a 20-digit id above it is none. */
const MAX_ID = '18446744073709551615';

/**
 * The worker of `id` among `workers` (as `workerIndexOf`: its 42-bit timestamp modulo the count),
 * or -1 for an id that is not an ordered snowflake: 17 to 20 digits without a leading zero,
 * below 2^64. Only those are in the listing's order; any other id is looked up by its string.
 * Doubles, not BigInt: every line of a run is read through this.
 */
export function partitionOf(id: string, workers: number): number {
	const length = id.length;
	if (length < 17 || length > 20 || id.charCodeAt(0) === 0x30 || (length === 20 && id > MAX_ID)) return -1;
	let head = 0;
	let rest = 0;
	let scale = 1;
	for (let i = 0; i < length; i++) {
		const digit = id.charCodeAt(i) - 0x30;
		if (digit < 0 || digit > 9) return -1;
		if (i < 15) head = head * 10 + digit;
		else {
			rest = rest * 10 + digit;
			scale *= 10;
		}
	}
	return timestampModulo(head, rest, scale, workers);
}

/** {@link partitionOf} of the id written in `bytes[from, to)`, without making it a string. */
export function partitionOfBytes(bytes: Buffer, from: number, to: number, workers: number): number {
	const length = to - from;
	if (length < 17 || length > 20 || bytes[from] === 0x30) return -1;
	let head = 0;
	let rest = 0;
	let scale = 1;
	for (let i = from; i < to; i++) {
		const digit = bytes[i]! - 0x30;
		if (digit < 0 || digit > 9) return -1;
		if (i - from < 15) head = head * 10 + digit;
		else {
			rest = rest * 10 + digit;
			scale *= 10;
		}
	}
	if (length === 20 && bytes.toString('latin1', from, to) > MAX_ID) return -1;
	return timestampModulo(head, rest, scale, workers);
}

/**
 * `(id >> 22) % workers` for id = head × scale + rest (head: its first 15 digits, exact in a
 * double; rest: the others, scale = 10^their count): with head = high × 2^22 + low,
 * id >> 22 = high × scale + ((low × scale + rest) >> 22), every term below 2^53.
 */
function timestampModulo(head: number, rest: number, scale: number, workers: number): number {
	const high = Math.floor(head / TWO_22);
	const low = head - high * TWO_22;
	return (high * scale + Math.floor((low * scale + rest) / TWO_22)) % workers;
}

/** Orders two ordered snowflakes (see {@link partitionOf}) as numbers: a shorter one is smaller. */
export function compareIds(a: string, b: string): number {
	if (a.length !== b.length) return a.length - b.length;
	return a < b ? -1 : a > b ? 1 : 0;
}

const FROM_KEY = Buffer.from('","from":');
const TO_KEY = Buffer.from(',"to":');
const NULL = Buffer.from('null');
const CLOSE_BRACE = 0x7d;

/**
 * The entry of the original line `bytes[start, end)` (no newline), read from its bytes when it is
 * written the usual way (`originalLine`); any other line goes through `parseRecord`. A restore
 * reads one entry per member: `JSON.parse` would make each member's id and names strings V8
 * keeps in its old space until a full collection, tens of MB of garbage a million members.
 * `undefined` for a line that is not an original.
 */
export function originalEntryAt(bytes: Buffer, start: number, end: number): RestoreEntry | undefined {
	const from = originalIdAt(bytes, start, end);
	if (from >= 0) {
		const id = bytes.toString('latin1', from, idEnd);
		let at = expect(FROM_KEY, bytes, idEnd, end);
		const original = at === -1 ? NOT_READ : readValue(bytes, at, end);
		at = original === NOT_READ ? -1 : expect(TO_KEY, bytes, valueEnd, end);
		const to = at === -1 ? NOT_READ : readValue(bytes, at, end);
		if (to !== NOT_READ && valueEnd === end - 1 && bytes[valueEnd] === CLOSE_BRACE) return new Entry(id, original as SlotValue, to as SlotValue);
	}
	const record = parseRecord(bytes.toString('utf8', start, end));
	return typeof record === 'string' || record.type !== 'original' ? undefined : new Entry(record.id, record.from, record.to);
}

/**
 * A {@link RestoreEntry} made by a constructor, not an object literal: V8 moves the objects of a
 * literal straight to its old space once a few of them have been seen alive at a collection (it
 * "pretenures" the literal), and a restore makes one per member, so its garbage would then pile
 * up there until a full collection: 80 MB more peak memory at 10,000,000 members, measured.
 */
class Entry implements RestoreEntry {
	constructor(
		readonly id: string,
		readonly from: SlotValue,
		readonly to: SlotValue,
	) {}
}

/** What {@link readValue} gives for a value it does not read: the line goes through `parseRecord`. */
const NOT_READ = Symbol('not read');
/** Where the value {@link readValue} read ends. */
let valueEnd = 0;

/** Where `bytes` hold `literal` at `at`, the offset after it; -1 if they do not. */
function expect(literal: Buffer, bytes: Buffer, at: number, end: number): number {
	if (end - at < literal.length) return -1;
	for (let i = 0; i < literal.length; i++) if (bytes[at + i] !== literal[i]) return -1;
	return at + literal.length;
}

/** The JSON value at `at`, `null` or a string, its end in {@link valueEnd}. */
function readValue(bytes: Buffer, at: number, end: number): SlotValue | typeof NOT_READ {
	const afterNull = expect(NULL, bytes, at, end);
	if (afterNull !== -1) {
		valueEnd = afterNull;
		return null;
	}
	if (bytes[at] !== QUOTE) return NOT_READ;
	let escaped = false;
	for (let i = at + 1; i < end; i++) {
		const byte = bytes[i]!;
		if (byte === BACKSLASH) {
			escaped = true;
			i++;
		} else if (byte === QUOTE) {
			valueEnd = i + 1;
			// An escape (a quote, a backslash, a control character in a name): JSON's own reading, for that value alone.
			if (!escaped) return bytes.toString('utf8', at + 1, i);
			const value: unknown = JSON.parse(bytes.toString('utf8', at, i + 1));
			return typeof value === 'string' ? value : NOT_READ;
		}
	}
	return NOT_READ;
}
