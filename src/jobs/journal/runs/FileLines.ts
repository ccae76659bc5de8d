import { closeSync, openSync, readSync } from 'node:fs';

const BLOCK = 1 << 14;
const NEWLINE = 0x0a;

/**
 * Synchronous reads of whole lines at any offset of a journal file, through one small block
 * buffer: a restore's plan is synchronous, and a cursor over a run reads it a block at a time.
 * Reads of a few KB from a file the page cache holds take microseconds; the event loop waits no
 * longer than that.
 */
export class FileLines {
	readonly #fd: number;
	#buffer = Buffer.alloc(BLOCK);
	/** The file offset of the buffer's first byte, and how many of its bytes were read. */
	#start = 0;
	#length = 0;

	constructor(fd: number) {
		this.#fd = fd;
	}

	static open(path: string): FileLines {
		return new FileLines(openSync(path, 'r'));
	}

	/** The last line {@link read}: `bytes[start, end)`, no newline; valid until the next read. */
	bytes: Buffer = this.#buffer;
	start = 0;
	end = 0;

	/**
	 * Reads the line that starts at `offset`, before `limit`, into {@link bytes}, {@link start} and
	 * {@link end}, and gives where the next line starts; -1 at `limit` or at a last line without
	 * its newline (torn by a crash: it was never acknowledged). Allocates nothing: a cursor reads
	 * every line of its run through this.
	 */
	read(offset: number, limit: number): number {
		if (offset >= limit) return -1;
		for (;;) {
			const at = offset - this.#start;
			if (at >= 0 && at < this.#length) {
				const newline = this.#buffer.indexOf(NEWLINE, at);
				if (newline !== -1 && newline < this.#length) {
					this.bytes = this.#buffer;
					this.start = at;
					this.end = newline;
					return this.#start + newline + 1;
				}
				// The line runs past the buffer: read again from its start, in a larger buffer if it is that long.
				if (at === 0 && this.#length === this.#buffer.length) this.#buffer = Buffer.alloc(this.#buffer.length * 2);
				else if (at === 0) return -1;
			}
			this.#start = offset;
			this.#length = readSync(this.#fd, this.#buffer, 0, this.#buffer.length, offset);
			if (this.#length === 0) return -1;
		}
	}

	/** Where the first line starting at or after `offset` starts (`offset` itself if a line starts there). */
	lineStartFrom(offset: number, limit: number): number {
		if (offset === 0) return 0;
		// The line holding `offset - 1` ends at a newline; the one after it starts at or after `offset`.
		const next = this.read(offset - 1, limit + 1);
		return next === -1 ? limit : next;
	}

	close(): void {
		closeSync(this.#fd);
	}
}
