import type { RestoreEntry } from '../../Plan.js';
import type { FileLines } from './FileLines.js';
import { originalEntryAt, peekLine } from './lineIds.js';

/**
 * The lines of a journal in no run (see `scanRuns`: joiners, members journaled alone), found by
 * member id without holding their entries: 16 bytes a line in typed arrays, sorted by id, then by
 * offset, so a restore of a guild of 100,000,000 with a joiner in every thousand keeps about
 * 1.6 MB for them, not objects a line. An entry is read from the file when asked for.
 *
 * Ids that are snowflakes are kept as their two 32-bit halves; any other id (a hand-made file)
 * in a small map by its text.
 */
export class Stragglers {
	readonly #high: Uint32Array;
	readonly #low: Uint32Array;
	readonly #offsets: Float64Array;
	readonly #others = new Map<string, number[]>();
	readonly #reader: FileLines;

	/** `offsets`: the stragglers' offsets in the file `reader` reads, ascending. */
	constructor(offsets: readonly number[], reader: FileLines) {
		this.#reader = reader;
		const highs = new Uint32Array(offsets.length);
		const lows = new Uint32Array(offsets.length);
		const at = new Float64Array(offsets.length);
		let count = 0;
		for (const offset of offsets) {
			if (reader.read(offset, Number.POSITIVE_INFINITY) === -1) continue;
			const { kind, id } = peekLine(reader.bytes, reader.start, reader.end);
			if (kind !== 'original') continue;
			if (idWords(id)) {
				highs[count] = high;
				lows[count] = low;
				at[count++] = offset;
			} else {
				const list = this.#others.get(id);
				if (list) list.push(offset);
				else this.#others.set(id, [offset]);
			}
		}
		// Sorted through an order of indices: no object a line, even for a file of millions of them.
		const order = new Uint32Array(count).map((_, n) => n);
		order.sort((a, b) => highs[a]! - highs[b]! || lows[a]! - lows[b]! || at[a]! - at[b]!);
		this.#high = order.map((n) => highs[n]!);
		this.#low = order.map((n) => lows[n]!);
		this.#offsets = Float64Array.from(order, (n) => at[n]!);
	}

	/** The first of `id`'s stragglers after `after` (an offset), or `undefined`. */
	first(id: string, after: number): { offset: number; entry: RestoreEntry } | undefined {
		const offset = this.#firstOffset(id, after);
		if (offset === -1 || this.#reader.read(offset, Number.POSITIVE_INFINITY) === -1) return undefined;
		const entry = originalEntryAt(this.#reader.bytes, this.#reader.start, this.#reader.end);
		return entry && { offset, entry };
	}

	#firstOffset(id: string, after: number): number {
		if (!idWords(id)) return this.#others.get(id)?.find((offset) => offset > after) ?? -1;
		const highs = this.#high;
		const lows = this.#low;
		let from = 0;
		let to = highs.length;
		while (from < to) {
			const middle = (from + to) >>> 1;
			if (highs[middle]! < high || (highs[middle] === high && lows[middle]! < low)) from = middle + 1;
			else to = middle;
		}
		for (let at = from; at < highs.length && highs[at] === high && lows[at] === low; at++) {
			if (this.#offsets[at]! > after) return this.#offsets[at]!;
		}
		return -1;
	}
}

/** The id {@link idWords} read last, as two 32-bit halves. */
let high = 0;
let low = 0;

/** Reads `id` into {@link high} and {@link low} if it is a number below 2^64 of 17 to 20 digits without a leading zero; says whether it was. */
function idWords(id: string): boolean {
	const length = id.length;
	if (length < 17 || length > 20 || id.charCodeAt(0) === 0x30) return false;
	high = 0;
	low = 0;
	for (let i = 0; i < length; i++) {
		const digit = id.charCodeAt(i) - 0x30;
		if (digit < 0 || digit > 9) return false;
		low = low * 10 + digit;
		const carry = Math.floor(low / 0x1_0000_0000);
		low -= carry * 0x1_0000_0000;
		high = high * 10 + carry;
		if (high > 0xffff_ffff) return false;
	}
	return true;
}

/** Whether the ascending `offsets` hold `offset`. */
export function holdsOffset(offsets: Float64Array, offset: number): boolean {
	const at = lowerBound(offsets, offset);
	return at < offsets.length && offsets[at] === offset;
}

/** The first place in the ascending `offsets` at or above `offset`. */
export function lowerBound(offsets: Float64Array, offset: number): number {
	let from = 0;
	let to = offsets.length;
	while (from < to) {
		const middle = (from + to) >>> 1;
		if (offsets[middle]! < offset) from = middle + 1;
		else to = middle;
	}
	return from;
}
