import type { FileLines } from './FileLines.js';
import type { RestoreEntry } from '../../Plan.js';
import { compareIds, idEnd, originalEntryAt, originalIdAt, partitionOf, partitionOfBytes, peekLine } from './lineIds.js';
import type { Run } from './scanRuns.js';
import { holdsOffset, lowerBound } from './Stragglers.js';

/** Below this many bytes a search reads the rest of its range line by line. */
const SCAN_BYTES = 1 << 15;

/**
 * Where a run's cursor stands: the next line of its worker (`id` at `offset`), or the run's end.
 * A class, not an object literal, as `Entry` is in `lineIds.ts`: one is made per line walked.
 */
class Head {
	constructor(
		readonly id: string,
		readonly offset: number,
		/** Where reading goes on after it. */
		readonly next: number,
	) {}
}

/** How many of its worker's lines a cursor reads ahead for an id before it searches instead. */
const NEAR_LINES = 256;

/**
 * One run of a journal file walked in id order beside the listing: asked for ids in ascending
 * order, it reads forward, a line at a time, past its worker's lines below the id asked for
 * (members who are no longer listed) and other workers' lines, so a whole restore reads the run
 * once and holds one line.
 *
 * An id out of step (a joiner, planned when they join: any user id, below or far above the
 * listing) is found by a binary search over the run's bytes, and the cursor stays. Only when the
 * next id asked comes after it does the cursor move there: the listing went on from it (past a
 * stretch of members who left since), so one joiner, or two, cost searches and never the walk.
 */
export class RunCursor {
	readonly #run: Run;
	readonly #workers: number;
	readonly #lines: FileLines;
	readonly #search: FileLines;
	/** Offsets of the lines in no run, ascending: lines of the run's worker it passes over. */
	readonly #stragglers: Float64Array;
	/** Where in {@link #stragglers} the cursor's own reading stands: it reads forward, mostly. */
	#straggler = 0;
	#head: Head | undefined;
	#lastAsked: string | undefined;
	/** An id searched for out of step, and the first line at or above it. */
	#candidate: { id: string; head: Head | undefined } | undefined;

	/** `lines`: the cursor's own reader; `search`: one for searches, shared; `stragglers`: offsets of lines in no run, ascending. */
	constructor(run: Run, workers: number, lines: FileLines, search: FileLines, stragglers: Float64Array) {
		this.#run = run;
		this.#workers = workers;
		this.#lines = lines;
		this.#search = search;
		this.#stragglers = stragglers;
		this.#head = this.#nextFrom(this.#lines, run.start, run.end);
	}

	/** The offset of `id`'s line in the run, or -1 if the run does not hold `id` (an ordered snowflake of the run's worker). */
	offsetOf(id: string): number {
		const candidate = this.#candidate;
		this.#candidate = undefined;
		if (candidate && compareIds(id, candidate.id) > 0) {
			this.#head = candidate.head;
			this.#lastAsked = candidate.id;
		}
		if (this.#lastAsked === undefined || compareIds(id, this.#lastAsked) >= 0) {
			const near = this.#near(id);
			// `undefined`: the run ends within reach, nothing at or above `id` is left.
			if (near !== null) {
				this.#head = near;
				this.#lastAsked = id;
				return near !== undefined && near.id === id ? near.offset : -1;
			}
		}
		const head = this.#lowerBound(id);
		this.#candidate = { id, head };
		return head !== undefined && head.id === id ? head.offset : -1;
	}

	/** The entry of the line at `offset`, which {@link offsetOf} just gave: the cursor's reader holds it. */
	entryAt(offset: number): RestoreEntry | undefined {
		const lines = this.#lines;
		return lines.read(offset, this.#run.end) === -1 ? undefined : originalEntryAt(lines.bytes, lines.start, lines.end);
	}

	/**
	 * The first line at or above `id` within {@link NEAR_LINES} of the worker's lines from the
	 * head; `undefined` if the run ends first; `null` if it is further.
	 */
	#near(id: string): Head | undefined | null {
		let head = this.#head;
		for (let read = 0; head !== undefined && compareIds(head.id, id) < 0; read++) {
			if (read === NEAR_LINES) return null;
			head = this.#nextFrom(this.#lines, head.next, this.#run.end);
		}
		return head;
	}

	/** The first line of the run's worker at or after `from` (a line start), before `limit`. */
	#nextFrom(reader: FileLines, from: number, limit: number): Head | undefined {
		for (let offset = from; ; ) {
			const next = reader.read(offset, limit);
			if (next === -1) return undefined;
			if (!this.#isStraggler(offset, reader === this.#lines)) {
				const { bytes, start, end } = reader;
				const from = originalIdAt(bytes, start, end);
				if (from >= 0) {
					// Most lines are other workers': their ids are never made strings.
					if (partitionOfBytes(bytes, from, idEnd, this.#workers) === this.#run.partition) return new Head(bytes.toString('latin1', from, idEnd), offset, next);
				} else {
					const { kind, id } = peekLine(bytes, start, end);
					if (kind === 'original' && partitionOf(id, this.#workers) === this.#run.partition) return new Head(id, offset, next);
				}
			}
			offset = next;
		}
	}

	/** Whether the line at `offset` is a straggler: a step forward from the last answer for the cursor's own reading, a binary search for a search's. */
	#isStraggler(offset: number, forward: boolean): boolean {
		const offsets = this.#stragglers;
		if (!forward) return holdsOffset(offsets, offset);
		let at = this.#straggler;
		// The cursor went back (to a joiner's place): search again from there.
		if (at > 0 && offsets[at - 1]! >= offset) at = lowerBound(offsets, offset);
		while (at < offsets.length && offsets[at]! < offset) at++;
		this.#straggler = at;
		return at < offsets.length && offsets[at] === offset;
	}

	/** Binary search by byte offset for the first line at or above `id`: the run's lines of its worker ascend however the others' interleave. */
	#lowerBound(id: string): Head | undefined {
		let low = this.#run.start;
		let high = this.#run.end;
		while (high - low > SCAN_BYTES) {
			const middle = this.#search.lineStartFrom(Math.floor((low + high) / 2), high);
			const probe = this.#nextFrom(this.#search, middle, high);
			if (probe === undefined) high = middle;
			else if (compareIds(probe.id, id) < 0) low = probe.next;
			// The first line at or above `id` is the probe, or starts before `middle`.
			else high = middle;
		}
		for (let head = this.#nextFrom(this.#search, low, this.#run.end); head !== undefined; head = this.#nextFrom(this.#search, head.next, this.#run.end)) {
			if (compareIds(head.id, id) >= 0) return head;
		}
		return undefined;
	}
}
