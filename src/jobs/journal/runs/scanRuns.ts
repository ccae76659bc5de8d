import { open as openFile } from 'node:fs/promises';
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
	/** `left` lines in the file: each forgot one original before it. */
	readonly leftLines: number;
}

/** How many lines out of step in a row a run sets aside before it takes them for the start of another. */
const OUT_OF_STEP = 16;

/** A class, not an object literal, as `Entry` is in `lineIds.ts`: one is made per line of the file. */
class Line {
	constructor(
		readonly id: string,
		readonly offset: number,
		readonly end: number,
	) {}
}

interface OpenRun {
	start: number;
	end: number;
	lines: number;
	last: string;
	/** The run's last lines (up to {@link OUT_OF_STEP}), which a lower line could set aside. */
	tail: Line[];
	/** The lines' offsets while the run is shorter than {@link SHORT_RUN}. */
	offsets: number[] | undefined;
	/** Lines below `last`, waiting for the worker's next lines to say what they are. */
	pending: Line[];
}

export async function scanRuns(path: string, workers: number, onTorn?: (offset: number) => void): Promise<RunLayout> {
	const runs: Run[] = [];
	const stragglers: number[] = [];
	const lefts = new Map<string, number>();
	const open = new Map<number, OpenRun>();
	let originals = 0;
	let leftLines = 0;

	const close = (partition: number, run: OpenRun): void => {
		for (const line of run.pending) stragglers.push(line.offset);
		if (run.offsets) stragglers.push(...run.offsets);
		else runs.push({ partition, start: run.start, end: run.end, lines: run.lines });
		open.delete(partition);
	};
	const begin = (partition: number, line: Line): OpenRun => {
		const run: OpenRun = { start: line.offset, end: line.end, lines: 1, last: line.id, tail: [line], offsets: [line.offset], pending: [] };
		open.set(partition, run);
		return run;
	};
	const append = (run: OpenRun, line: Line): void => {
		run.last = line.id;
		run.end = line.end;
		run.lines++;
		run.tail.push(line);
		if (run.tail.length > OUT_OF_STEP) run.tail.shift();
		if (run.offsets) {
			run.offsets.push(line.offset);
			if (run.offsets.length >= SHORT_RUN) run.offsets = undefined;
		}
	};
	const place = (partition: number, line: Line): void => {
		let run = open.get(partition);
		if (!run) {
			begin(partition, line);
			return;
		}
		if (run.pending.length > 0) {
			if (compareIds(line.id, run.last) <= 0) {
				if (dropAbove(run, line.id)) {
					// The run's end stood out (joiners with high ids): the lines since are placed anew against what is left.
					const replay = [...run.pending, line];
					run.pending = [];
					for (const each of replay) place(partition, each);
					return;
				}
				run.pending.push(line);
				if (run.pending.length <= OUT_OF_STEP) return;
				// Too many in a row to be joiners: the job ran again, and its next run starts with them.
				const next = run.pending;
				run.pending = [];
				close(partition, run);
				run = begin(partition, next[0]!);
				for (const each of next.slice(1)) place(partition, each);
				return;
			}
			// The run goes on above them: they were joiners.
			for (const each of run.pending) stragglers.push(each.offset);
			run.pending = [];
		}
		if (compareIds(line.id, run.last) > 0) return append(run, line);
		// The run's last lines may stand out above this one (joiners with high ids): set aside, the run goes on.
		if (dropAbove(run, line.id)) return append(run, line);
		run.pending.push(line);
	};
	/** Sets aside the run's last lines at or above `id` if some line of its tail stays below it; says whether it did. */
	const dropAbove = (run: OpenRun, id: string): boolean => {
		const tail = run.tail;
		let above = 0;
		while (above < tail.length && compareIds(tail[tail.length - 1 - above]!.id, id) >= 0) above++;
		if (above === tail.length) return false;
		for (const each of tail.splice(tail.length - above)) {
			stragglers.push(each.offset);
			run.offsets?.pop();
		}
		run.lines -= above;
		run.last = tail[tail.length - 1]!.id;
		return true;
	};
	const original = (id: string, offset: number, end: number): void => {
		originals++;
		const partition = partitionOf(id, workers);
		if (partition < 0) stragglers.push(offset);
		else place(partition, new Line(id, offset, end));
	};

	// One buffer, reused: a stream's chunk per read would be garbage the size of the file.
	const handle = await openFile(path, 'r');
	try {
		let bytes = Buffer.alloc(1 << 16);
		let kept = 0;
		let offset = 0;
		for (;;) {
			const { bytesRead } = await handle.read(bytes, kept, bytes.length - kept, offset + kept);
			if (bytesRead === 0) break;
			const length = kept + bytesRead;
			let start = 0;
			for (let newline = bytes.indexOf(0x0a); newline !== -1 && newline < length; newline = bytes.indexOf(0x0a, start)) {
				if (newline > start) {
					const line = peekLine(bytes, start, newline);
					if (line.kind === 'original') original(line.id, offset, offset + newline - start + 1);
					else if (line.kind === 'left') {
						lefts.set(line.id, offset);
						leftLines++;
					}
				}
				offset += newline - start + 1;
				start = newline + 1;
			}
			// The line cut by the buffer's end goes first next time; a line longer than the buffer gets a larger one.
			kept = length - start;
			if (start === 0 && kept === bytes.length) {
				const larger = Buffer.alloc(bytes.length * 2);
				bytes.copy(larger);
				bytes = larger;
			} else bytes.copyWithin(0, start, length);
		}
		if (kept > 0) onTorn?.(offset);
	} finally {
		await handle.close();
	}
	for (const [partition, run] of [...open]) close(partition, run);
	stragglers.sort((a, b) => a - b);
	runs.sort((a, b) => a.start - b.start);
	return { runs, stragglers, lefts, originals, leftLines };
}
