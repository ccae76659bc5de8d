import { ErrorCodes, JournalError } from '../../errors.js';
import { type FileHandle, writeAll, writeFailed } from './files.js';

interface Batch {
	promise: Promise<void>;
	resolve: () => void;
	reject: (error: Error) => void;
}

/**
 * Durable appends to one file, grouped: lines that arrive while a write is under way go out
 * together in the next one (one `write` and one `fdatasync`), so ten workers journaling at once
 * cost one fsync per round, not ten. Each {@link append} resolves once its lines, and every line
 * appended before them, are on disk. After a failed write every later append is refused with
 * that failure: nothing may be changed without its original on disk.
 */
export class GroupCommit {
	readonly #path: string;
	readonly #handle: FileHandle;
	#queued: string[] = [];
	/** The batch being written, and the one collecting lines for the write after it. */
	#writing: Batch | undefined;
	#next: Batch | undefined;
	#failure: JournalError | undefined;
	#closed = false;

	constructor(path: string, handle: FileHandle) {
		this.#path = path;
		this.#handle = handle;
	}

	/** Queues `lines` for the next write and resolves when it is durable. */
	append(lines: readonly string[]): Promise<void> {
		if (this.#failure) return Promise.reject(this.#failure);
		if (this.#closed) return Promise.reject(new JournalError(ErrorCodes.JournalClosed, `The journal ${this.#path} is closed.`));
		// Nothing new: still wait for any write that holds ids this call relies on.
		if (lines.length === 0) return this.#lastWrite() ?? Promise.resolve();
		this.#queued.push(...lines);
		if (this.#next === undefined) {
			let resolve!: () => void;
			let reject!: (error: Error) => void;
			const promise = new Promise<void>((yes, no) => {
				resolve = yes;
				reject = no;
			});
			this.#next = { promise, resolve, reject };
		}
		const batch = this.#next;
		if (this.#writing === undefined) void this.#drain();
		return batch.promise;
	}

	/** Waits for pending writes, then closes the file. Later appends throw `JOURNAL_CLOSED`. */
	async close(): Promise<void> {
		if (this.#closed) return;
		const pending = this.#lastWrite();
		this.#closed = true;
		await pending?.catch(() => undefined);
		await this.#handle.close();
	}

	/** Resolves when everything queued so far is on disk (batches are written in order). */
	#lastWrite(): Promise<void> | undefined {
		return (this.#next ?? this.#writing)?.promise;
	}

	async #drain(): Promise<void> {
		while (this.#next !== undefined) {
			const batch = this.#next;
			const text = this.#queued.join('');
			this.#writing = batch;
			this.#next = undefined;
			this.#queued = [];
			if (this.#failure) {
				batch.reject(this.#failure);
				continue;
			}
			try {
				await writeAll(this.#handle, text);
				await this.#handle.datasync();
				batch.resolve();
			} catch (error) {
				this.#failure = writeFailed(this.#path, error);
				batch.reject(this.#failure);
			}
		}
		this.#writing = undefined;
	}
}
