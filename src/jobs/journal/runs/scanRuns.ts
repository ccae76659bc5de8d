import { createReadStream } from 'node:fs';
import { compareIds, partitionOf, peekLine } from './lineIds.js';

/**
 * Finds the ordered runs of a journal file in one streaming pass, keeping offsets, not entries.
 *
 * A job journals each worker's members in the order the listing gives them, which is id order
 * (see `SliceLayout`: a worker's slice takes its members in listing order), so the lines of one
 * worker form an ascending run until the job runs again (a rerun, a resume, a standing rule's
 * next sweep), which starts another. A compacted file is one run (see `CompactedRecord`). The
 * workers' lines interleave in the file; a run is one worker's lines between two offsets.
 *
 * Some lines are out of order: a joiner (any user id, journaled when they join), a member
 * journaled alone. They are the stragglers, looked up in memory: a line lower than its run's last
 * that the next line of its worker climbs over again; the last line of a run that the next one
 * undercuts but not the one before (a joiner with a high id); a run that ends with fewer than
 * {@link SHORT_RUN} lines; a line whose id is not an ordered snowflake. `left` lines are kept too,
 * by member: few, and a restore must know them before the originals they void.
 */

/** A run shorter than this when it ends is not worth a cursor: its lines are looked up in memory. */
export const SHORT_RUN = 256;

/** One worker's ascending lines, between `start` (its first line's offset) and `end` (its last line's end). */
export interface Run {
	readonly partition: number;
	readonly start: number;
	readonly end: number;
	readonly lines: number;
}

export interface RunLayout {
	readonly runs: readonly Run[];
	/** Offsets of the originals that are in no run, ascending. */
	readonly stragglers: readonly number[];
	/** Member id → offset of their last `left` line. */
	readonly lefts: ReadonlyMap<string, number>;
	/** Original lines in the file. */
	readonly originals: number;
}

interface OpenRun {
	start: number;
	end: number;
	lines: number;
	last: string;
	/** The id before `last`, while `last` could still be dropped as a straggler. */
	beforeLast: string | undefined;
	lastOffset: number;
	/** The lines' offsets while the run is shorter than {@link SHORT_RUN}. */
	offsets: number[] | undefined;
	/** A line lower than `last`, waiting for the worker's next line to say what it is. */
	pending: { id: string; offset: number; end: number } | undefined;
}

export async function scanRuns(path: string, workers: number, onTorn?: (offset: number) => void): Promise<RunLayout> {
	const runs: Run[] = [];
	const stragglers: number[] = [];
	const lefts = new Map<string, number>();
	const open = new Map<number, OpenRun>();
	let originals = 0;

	const close = (partition: number, run: OpenRun): void => {
		if (run.pending) stragglers.push(run.pending.offset);
		if (run.offsets) stragglers.push(...run.offsets);
		else runs.push({ partition, start: run.start, end: run.end, lines: run.lines });
		open.delete(partition);
	};
	const begin = (partition: number, id: string, offset: number, end: number): void => {
		open.set(partition, { start: offset, end, lines: 1, last: id, beforeLast: undefined, lastOffset: offset, offsets: [offset], pending: undefined });
	};
	const append = (run: OpenRun, id: string, offset: number, end: number): void => {
		run.beforeLast = run.last;
		run.last = id;
		run.lastOffset = offset;
		run.end = end;
		run.lines++;
		if (run.offsets) {
			run.offsets.push(offset);
			if (run.offsets.length >= SHORT_RUN) run.offsets = undefined;
		}
	};
	const original = (id: string, offset: number, end: number): void => {
		originals++;
		const partition = partitionOf(id, workers);
		if (partition < 0) {
			stragglers.push(offset);
			return;
		}
		let run = open.get(partition);
		if (!run) return begin(partition, id, offset, end);
		if (run.pending) {
			const pending = run.pending;
			run.pending = undefined;
			if (compareIds(id, run.last) > 0) stragglers.push(pending.offset);
			else {
				close(partition, run);
				begin(partition, pending.id, pending.offset, pending.end);
				run = open.get(partition)!;
			}
		}
		if (compareIds(id, run.last) > 0) return append(run, id, offset, end);
		if (run.beforeLast !== undefined && compareIds(id, run.beforeLast) > 0) {
			// The run's last line stood out above it (a joiner): it goes aside, the run goes on.
			stragglers.push(run.lastOffset);
			if (run.offsets) run.offsets.pop();
			run.last = run.beforeLast;
			run.beforeLast = undefined;
			run.lines--;
			return append(run, id, offset, end);
		}
		run.pending = { id, offset, end };
	};

	let rest: Buffer | undefined;
	let offset = 0;
	for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 }) as AsyncIterable<Buffer>) {
		const bytes = rest ? Buffer.concat([rest, chunk]) : chunk;
		let start = 0;
		for (let newline = bytes.indexOf(0x0a); newline !== -1; newline = bytes.indexOf(0x0a, start)) {
			if (newline > start) {
				const line = peekLine(bytes, start, newline);
				if (line.kind === 'original') original(line.id, offset, offset + newline - start + 1);
				else if (line.kind === 'left') lefts.set(line.id, offset);
			}
			offset += newline - start + 1;
			start = newline + 1;
		}
		rest = start < bytes.length ? bytes.subarray(start) : undefined;
	}
	if (rest && rest.length > 0) onTorn?.(offset);
	for (const [partition, run] of [...open]) close(partition, run);
	stragglers.sort((a, b) => a - b);
	runs.sort((a, b) => a.start - b.start);
	return { runs, stragglers, lefts, originals };
}
