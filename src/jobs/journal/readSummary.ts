import { open } from 'node:fs/promises';
import { type JournalCounts, type JournalEndState, type JournalHeader, parseRecord, type StatusRecord } from './records.js';

/**
 * `running`: no status after the last original, so the job is running or crashed unfinished;
 * `stopped`: its process shut down under it. Both are unfinished, and `npm start` resumes either.
 */
export type JournalState = 'running' | JournalEndState;

/** What `/status` and `/restore` need to know about one journal, without reading all of it. */
export interface JournalSummary {
	readonly path: string;
	/** The worker whose members the file journals (`<job>.w<id>.jsonl`); `undefined`: every worker's. */
	readonly workerId?: number | undefined;
	readonly header: JournalHeader;
	readonly state: JournalState;
	/** When the last status was written, if any. */
	readonly endedAt?: string | undefined;
	readonly counts?: JournalCounts | undefined;
}

const WINDOW = 1 << 16;
/**
 * The longest header line read: a job limited to a file of user ids keeps them in its header
 * (`MAX_LISTED_IDS` of about 22 bytes each, 2.2 MB), with room to spare.
 */
const MAX_HEADER_BYTES = 8 << 20;

/**
 * Reads a journal's header and its state. The state is decided by the last record: a status line
 * gives its state, an original (or nothing) means running. Only the header line and the last
 * 64 KiB are read, since a journal of a big guild runs to hundreds of megabytes.
 *
 * @returns the summary, or why the file is not a journal.
 */
export async function readSummary(path: string): Promise<JournalSummary | string> {
	const handle = await open(path, 'r');
	try {
		const { size } = await handle.stat();
		const head = await readHead(handle, size);
		const end = head.indexOf('\n');
		if (end === -1) return size > MAX_HEADER_BYTES ? `has a header line over ${MAX_HEADER_BYTES >> 20} MB` : 'has no complete header line';
		const header = parseRecord(head.slice(0, end));
		if (typeof header === 'string') return `has a header that ${header}`;
		if (header.type !== 'job') return 'does not start with a header line';

		// One byte before the window, so a line starting exactly at the window's edge is kept whole.
		const start = Math.max(0, size - WINDOW - 1);
		let tail = await readAt(handle, start, size - start);
		if (start > 0) tail = tail.slice(tail.indexOf('\n') + 1);
		const lines = tail.split('\n');
		lines.pop(); // '' after the last newline, or a torn line
		let last: StatusRecord | undefined;
		for (let i = lines.length - 1; i >= 0; i--) {
			const record = parseRecord(lines[i]!);
			if (typeof record === 'string') continue;
			if (record.type === 'status') last = record;
			break;
		}
		return last === undefined ? { path, header, state: 'running' } : { path, header, state: last.state, endedAt: last.at, counts: last.counts };
	} finally {
		await handle.close();
	}
}

/** The file's start, up to its first line's end: 64 KiB, or more for a header that holds a list of ids. */
async function readHead(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<string> {
	let length = Math.min(size, WINDOW);
	for (;;) {
		const head = await readAt(handle, 0, length);
		if (head.includes('\n') || length >= Math.min(size, MAX_HEADER_BYTES)) return head;
		length = Math.min(size, MAX_HEADER_BYTES, length * 8);
	}
}

async function readAt(handle: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<string> {
	const buffer = Buffer.alloc(length);
	let read = 0;
	while (read < length) {
		const { bytesRead } = await handle.read(buffer, read, length - read, position + read);
		if (bytesRead === 0) break;
		read += bytesRead;
	}
	return buffer.subarray(0, read).toString('utf8');
}
