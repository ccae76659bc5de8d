/**
 * A set of member ids, each with a row of a few 32-bit numbers, in about 20 bytes per id where a
 * `Map<string, …>` takes about 100: a guild of 10,000,000 members has to fit in a 1.5 GB process.
 *
 * A snowflake is a 64-bit number (see `src/discord/snowflake.ts`), so a row keeps the id as two
 * 32-bit halves, followed by its `width` values. Rows are numbered in insertion order and stored
 * in fixed chunks of 65,536 rows, so growing never copies them (and never needs the old and the
 * new copy at once). Lookups go through an open-addressing hash table (linear probing) of row
 * numbers, doubled past a load of 3/4: 5 to 11 bytes per id, one or two probes a lookup.
 *
 * The journal format allows any string as an id; one that is not a 64-bit number in canonical
 * decimal (no sign, no leading zero) is never a Discord id, so it goes to a plain `Map` on the
 * side. That keeps string semantics exact: `"0123"` and `"123"` stay two ids.
 *
 * Ids are never removed: an index that must forget members (a standing rule's journal, see
 * `compactJournal`) marks their row, and is built anew, smaller, when the journal is compacted.
 */

const CHUNK_BITS = 16;
const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;
const INITIAL_SLOTS = 1 << 10;
const TWO_32 = 0x1_0000_0000;

/** The halves of the id last parsed by {@link parseSnowflake}: no allocation per lookup. */
let parsedHigh = 0;
let parsedLow = 0;

export class SnowflakeTable {
	readonly #stride: number;
	readonly #chunks: Uint32Array[] = [];
	#size = 0;
	/** Row + 1 of the id hashed to each slot; 0 is an empty slot. */
	#slots = new Uint32Array(INITIAL_SLOTS);
	/** Ids that are not canonical 64-bit numbers, by string, and back (created on first use). */
	#others: Map<string, number> | undefined;
	#otherIds: Map<number, string> | undefined;

	/** @param width How many 32-bit values each row holds besides the id; they start at 0. */
	constructor(width: number) {
		this.#stride = 2 + width;
	}

	get size(): number {
		return this.#size;
	}

	/** The row of `id`, or -1 if it is not in the table. */
	find(id: string): number {
		if (!parseSnowflake(id)) return this.#others?.get(id) ?? -1;
		const slots = this.#slots;
		const mask = slots.length - 1;
		for (let slot = hash(parsedHigh, parsedLow) & mask; ; slot = (slot + 1) & mask) {
			const entry = slots[slot]!;
			if (entry === 0) return -1;
			if (this.#holds(entry - 1, parsedHigh, parsedLow)) return entry - 1;
		}
	}

	/**
	 * Adds `id` with a row of zeros and returns the row, or returns -1 if `id` is already there
	 * (its row is left as it is: the first value for an id wins).
	 */
	add(id: string): number {
		if (!parseSnowflake(id)) return this.#addOther(id);
		const high = parsedHigh;
		const low = parsedLow;
		const slots = this.#slots;
		const mask = slots.length - 1;
		let slot = hash(high, low) & mask;
		for (let entry = slots[slot]!; entry !== 0; slot = (slot + 1) & mask, entry = slots[slot]!) {
			if (this.#holds(entry - 1, high, low)) return -1;
		}
		const row = this.#newRow();
		const chunk = this.#chunks[row >>> CHUNK_BITS]!;
		const at = (row & CHUNK_MASK) * this.#stride;
		chunk[at] = high;
		chunk[at + 1] = low;
		slots[slot] = row + 1;
		if (this.#size * 4 > slots.length * 3) this.#grow();
		return row;
	}

	/** Value `column` (0 to width - 1) of `row`. */
	get(row: number, column: number): number {
		return this.#chunks[row >>> CHUNK_BITS]![(row & CHUNK_MASK) * this.#stride + 2 + column]!;
	}

	set(row: number, column: number, value: number): void {
		this.#chunks[row >>> CHUNK_BITS]![(row & CHUNK_MASK) * this.#stride + 2 + column] = value;
	}

	/** The id of `row`, as the string it was added as. */
	idOf(row: number): string {
		const other = this.#otherIds?.get(row);
		if (other !== undefined) return other;
		const chunk = this.#chunks[row >>> CHUNK_BITS]!;
		const at = (row & CHUNK_MASK) * this.#stride;
		return ((BigInt(chunk[at]!) << 32n) | BigInt(chunk[at + 1]!)).toString();
	}

	/**
	 * Every row, ordered by its id as a number (how Discord lists members), the ids that are not
	 * canonical 64-bit numbers after them, by string. For a compacted journal's run of originals.
	 */
	rowsInIdOrder(): Uint32Array {
		const rows = new Uint32Array(this.#size);
		for (let row = 0; row < rows.length; row++) rows[row] = row;
		const others = this.#otherIds;
		return rows.sort((a, b) => {
			const otherA = others?.get(a);
			const otherB = others?.get(b);
			if (otherA !== undefined || otherB !== undefined) {
				if (otherA === undefined) return -1;
				if (otherB === undefined) return 1;
				return otherA < otherB ? -1 : otherA > otherB ? 1 : 0;
			}
			const chunkA = this.#chunks[a >>> CHUNK_BITS]!;
			const chunkB = this.#chunks[b >>> CHUNK_BITS]!;
			const atA = (a & CHUNK_MASK) * this.#stride;
			const atB = (b & CHUNK_MASK) * this.#stride;
			return chunkA[atA]! - chunkB[atB]! || chunkA[atA + 1]! - chunkB[atB + 1]!;
		});
	}

	/** Every id, in the order they were added. */
	*ids(): IterableIterator<string> {
		for (let row = 0; row < this.#size; row++) yield this.idOf(row);
	}

	#holds(row: number, high: number, low: number): boolean {
		const chunk = this.#chunks[row >>> CHUNK_BITS]!;
		const at = (row & CHUNK_MASK) * this.#stride;
		return chunk[at + 1] === low && chunk[at] === high;
	}

	#newRow(): number {
		const row = this.#size++;
		if (row >>> CHUNK_BITS === this.#chunks.length) this.#chunks.push(new Uint32Array(CHUNK_ROWS * this.#stride));
		return row;
	}

	#addOther(id: string): number {
		this.#others ??= new Map();
		this.#otherIds ??= new Map();
		if (this.#others.has(id)) return -1;
		const row = this.#newRow();
		this.#others.set(id, row);
		this.#otherIds.set(row, id);
		return row;
	}

	/**
	 * Doubles the slots and rehashes from the rows, not the old slots, so the old table can be
	 * dropped before the new one is allocated: the peak is the new table alone.
	 */
	#grow(): void {
		const length = this.#slots.length * 2;
		this.#slots = new Uint32Array(0);
		const slots = new Uint32Array(length);
		const mask = length - 1;
		const others = this.#otherIds;
		for (let row = 0; row < this.#size; row++) {
			if (others?.has(row)) continue;
			const chunk = this.#chunks[row >>> CHUNK_BITS]!;
			const at = (row & CHUNK_MASK) * this.#stride;
			let slot = hash(chunk[at]!, chunk[at + 1]!) & mask;
			while (slots[slot] !== 0) slot = (slot + 1) & mask;
			slots[slot] = row + 1;
		}
		this.#slots = slots;
	}
}

/**
 * Reads `id` into {@link parsedHigh} and {@link parsedLow} if it is a 64-bit number written the
 * one way `BigInt#toString` writes it, so that {@link SnowflakeTable.idOf} gives back the same
 * string. Plain arithmetic on doubles (every intermediate stays below 2^36), not `BigInt`, which
 * would allocate twice per lookup.
 */
function parseSnowflake(id: string): boolean {
	const length = id.length;
	if (length === 0 || length > 20 || (length > 1 && id.charCodeAt(0) === 0x30)) return false;
	let high = 0;
	let low = 0;
	for (let i = 0; i < length; i++) {
		const digit = id.charCodeAt(i) - 0x30;
		if (digit < 0 || digit > 9) return false;
		low = low * 10 + digit;
		const carry = Math.floor(low / TWO_32);
		low -= carry * TWO_32;
		high = high * 10 + carry;
		if (high >= TWO_32) return false;
	}
	parsedHigh = high;
	parsedLow = low;
	return true;
}

/**
 * Mixes both halves (murmur3's finalizer): a snowflake's low 22 bits are worker, process and a
 * counter that is often 0, so neither half alone spreads ids over the table.
 */
function hash(high: number, low: number): number {
	let h = low ^ Math.imul(high, 0x9e3779b1);
	h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
	return h ^ (h >>> 16);
}
