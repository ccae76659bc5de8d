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
 *
 * A compaction replaces the file under it (see `compactJournal`): {@link exclusive} holds the
 * writes while it does, and {@link replace} points them at the new file.
 */
export class GroupCommit {
	readonly #path: string;
	#handle: FileHandle;
	/** Bytes in the file once every write begun has ended. */
	#size: number;
	#queued: string[] = [];
	/** The batch being written, and the one collecting lines for the write after it. */
	#writing: Batch | undefined;
	#next: Batch | undefined;
	#failure: JournalError | undefined;
	#closed = false;
	/** Set by {@link exclusive}: no write begins. */
	#held = false;
	/** Resolves when the writing loop has stopped. */
	#drained: Promise<void> = Promise.resolve();
	#onWritten: ((text: string) => void) | undefined;

	/** @param size the bytes `handle`'s file holds already (appends go after them). */
	constructor(path: string, handle: FileHandle, size = 0) {
		this.#path = path;
		this.#handle = handle;
		this.#size = size;
	}

	/** The file's size in bytes, every write that has ended included. */
	get size(): number {
		return this.#size;
	}

	/** The failed write's error, once one failed: the file takes no more. */
	get failure(): JournalError | undefined {
		return this.#failure;
	}

	/** Closed: it takes no more lines. */
	get closed(): boolean {
		return this.#closed;
	}

	/** The lines appended and not written yet, in order. */
	get waiting(): readonly string[] {
		return this.#queued;
	}

	/** Tells `listener` the text of every write once it is on disk (`undefined`: no one). */
	onWritten(listener: ((text: string) => void) | undefined): void {
		this.#onWritten = listener;
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
		this.#startWriting();
		return batch.promise;
	}

	/**
	 * Runs `task` once no write is under way, and begins none until it ends: lines appended
	 * meanwhile wait (their appends resolve after it, once written). One at a time.
	 */
	async exclusive<T>(task: () => Promise<T>): Promise<T> {
		if (this.#held) throw new Error(`${this.#path}: exclusive access while it is held`);
		this.#held = true;
		try {
			await this.#drained;
			return await task();
		} finally {
			this.#held = false;
			this.#startWriting();
		}
	}

	/**
	 * From now on writes go to `handle`, whose file holds `size` bytes: the file was replaced by a
	 * compacted one. Only inside {@link exclusive}. Returns the old handle, for the caller to close.
	 */
	replace(handle: FileHandle, size: number): FileHandle {
		if (!this.#held) throw new Error(`${this.#path}: the file replaced outside exclusive access`);
		const old = this.#handle;
		this.#handle = handle;
		this.#size = size;
		return old;
	}

	/** Refuses every later append with `error` as a failed write would (the file can no longer be trusted to keep them). */
	fail(error: unknown): void {
		this.#failure ??= writeFailed(this.#path, error);
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

	#startWriting(): void {
		if (this.#writing === undefined && this.#next !== undefined && !this.#held) this.#drained = this.#drain();
	}

	async #drain(): Promise<void> {
		while (this.#next !== undefined && !this.#held) {
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
				this.#size += Buffer.byteLength(text, 'utf8');
				this.#onWritten?.(text);
				batch.resolve();
			} catch (error) {
				this.#failure = writeFailed(this.#path, error);
				batch.reject(this.#failure);
			}
		}
		this.#writing = undefined;
	}
}
