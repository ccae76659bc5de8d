/**
 * Values (the strings members had) kept as UTF-8 bytes in shared 1 MiB buffers, each named by a 32-bit reference, so a
 * journal index holds millions of them without a JavaScript string (16 bytes of header, and two
 * bytes a character as soon as one is an emoji like 🎃) and a pointer to it per member.
 *
 * A name is stored as its byte length (LEB128, one byte below 128) and its bytes; a reference is
 * its position + 1, so that 0 stands for `null` (most values are none) and costs nothing.
 * Buffers are appended, never copied to grow. A name too long for one buffer gets a buffer of its
 * own that takes the place of as many buffers as it needs, so a position still finds its buffer
 * with a shift.
 *
 * Repeats are found through a fixed table of recently stored names by hash of their bytes rather
 * than a full deduplicating table: a full one costs 4 to 8 bytes for every distinct name, and
 * with a template like `🎃 {display_name}` nearly every name is distinct, while the repeats that
 * matter (one value set on every member; common ones) recur often enough
 * to stay in a table of 65,536 names.
 */

const BUFFER_BITS = 20;
const BUFFER_SIZE = 1 << BUFFER_BITS;
const BUFFER_MASK = BUFFER_SIZE - 1;
/** References are `Uint32Array` values: position + 1 must stay below 2^32. */
const MAX_POSITION = 0xffff_fffe;
const RECENT_SLOTS = 1 << 16;
const NULL_REFERENCE = 0;
/**
 * A reference no name ever gets (the last one is `MAX_POSITION + 1`): an index keeps it in a row
 * of a member it has forgotten (see `OriginalIndex.forget`).
 */
export const NO_REFERENCE = 0xffff_ffff;

export class StringStore {
	readonly #buffers: Buffer[] = [];
	/** Where the next name goes. */
	#end = 0;
	/** The reference of a name recently stored, by a hash of its stored bytes. */
	readonly #recent = new Uint32Array(RECENT_SLOTS);

	/** Stores `value` and returns its reference; `null` is always reference 0 and stores nothing. */
	add(value: string | null): number {
		if (value === null) return NULL_REFERENCE;
		const length = Buffer.byteLength(value, 'utf8');
		const need = prefixLength(length) + length;
		if (need > BUFFER_SIZE) return this.#addLong(value, length, need);
		if ((this.#end & BUFFER_MASK) + need > BUFFER_SIZE) this.#end = this.#nextBuffer();
		const position = this.#end;
		if (position > MAX_POSITION - need) throw tooMany();
		if (position >>> BUFFER_BITS === this.#buffers.length) this.#buffers.push(Buffer.allocUnsafeSlow(BUFFER_SIZE));
		const buffer = this.#buffers[position >>> BUFFER_BITS]!;
		const start = position & BUFFER_MASK;
		const text = writePrefix(buffer, start, length);
		buffer.write(value, text, length, 'utf8');

		// Written past the end first, so a repeat is compared byte for byte and simply not kept.
		const slot = hashBytes(buffer, start, start + need) & (RECENT_SLOTS - 1);
		const candidate = this.#recent[slot]!;
		if (candidate !== NULL_REFERENCE && this.#equals(candidate - 1, buffer, start, need)) return candidate;
		this.#recent[slot] = position + 1;
		this.#end = position + need;
		return position + 1;
	}

	/** The name of `reference` (0: `null`). */
	get(reference: number): string | null {
		if (reference === NULL_REFERENCE) return null;
		const position = reference - 1;
		const buffer = this.#buffers[position >>> BUFFER_BITS]!;
		let at = position & BUFFER_MASK;
		let length = 0;
		for (let shift = 0; ; shift += 7) {
			const byte = buffer[at++]!;
			length += (byte & 0x7f) * 2 ** shift;
			if (byte < 0x80) break;
		}
		return buffer.toString('utf8', at, at + length);
	}

	/** Whether the `need` bytes at `position` are those at `start` of `buffer` (the prefix first). */
	#equals(position: number, buffer: Buffer, start: number, need: number): boolean {
		const stored = this.#buffers[position >>> BUFFER_BITS]!;
		const at = position & BUFFER_MASK;
		// The prefixes are compared first, so a longer name's bytes are never read past a shorter one's end.
		for (let i = 0; i < need; i++) if (stored[at + i] !== buffer[start + i]) return false;
		return true;
	}

	#nextBuffer(): number {
		return ((this.#end >>> BUFFER_BITS) + 1) * BUFFER_SIZE;
	}

	#addLong(value: string, length: number, need: number): number {
		const position = (this.#end & BUFFER_MASK) === 0 ? this.#end : this.#nextBuffer();
		const spans = Math.ceil(need / BUFFER_SIZE);
		if (position > MAX_POSITION - spans * BUFFER_SIZE) throw tooMany();
		const buffer = Buffer.allocUnsafeSlow(need);
		buffer.write(value, writePrefix(buffer, 0, length), length, 'utf8');
		const first = position >>> BUFFER_BITS;
		while (this.#buffers.length < first) this.#buffers.push(EMPTY);
		this.#buffers[first] = buffer;
		// The positions it covers belong to no other name.
		for (let i = 1; i < spans; i++) this.#buffers[first + i] = EMPTY;
		this.#end = position + spans * BUFFER_SIZE;
		return position + 1;
	}
}

const EMPTY = Buffer.alloc(0);

function prefixLength(length: number): number {
	let bytes = 1;
	for (let rest = length; rest >= 0x80; rest = Math.floor(rest / 0x80)) bytes++;
	return bytes;
}

/** Writes `length` as LEB128 at `at` and returns where the name's bytes start. */
function writePrefix(buffer: Buffer, at: number, length: number): number {
	let rest = length;
	while (rest >= 0x80) {
		buffer[at++] = (rest & 0x7f) | 0x80;
		rest = Math.floor(rest / 0x80);
	}
	buffer[at++] = rest;
	return at;
}

/** FNV-1a: names are a dozen bytes, so a byte loop beats a call into native code. */
function hashBytes(buffer: Buffer, start: number, end: number): number {
	let h = 0x811c9dc5;
	for (let i = start; i < end; i++) h = Math.imul(h ^ buffer[i]!, 0x01000193);
	return h >>> 0;
}

/**
 * 4 GiB of names: at most 96 bytes for each of a member's two names (Discord's 32-character
 * limit), so over 20,000,000 members, far past the memory this index is meant to fit in.
 */
function tooMany(): RangeError {
	return new RangeError('A journal index holds at most 4 GiB of names.');
}
