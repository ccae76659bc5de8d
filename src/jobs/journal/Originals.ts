import type { SlotValue } from '../Plan.js';

/**
 * What a journal open for appending knows of its members: each one's value from before the job.
 * Built in memory for a new journal ({@link OriginalIndex}), read from the file's ordered runs for
 * one reopened (`ReopenedOriginals`).
 */
export interface Originals {
	/** How many members have an original. */
	readonly size: number;
	has(id: string): boolean;
	/** The value `id` had before the job (`null`: none), or `undefined` if not journaled. */
	originalOf(id: string): SlotValue | undefined;
	/** Adds `id`'s original unless it has one (the first wins); says whether it did. */
	add(id: string, from: SlotValue): boolean;
	/** Forgets `id`'s original (they left); says whether there was one. */
	forget(id: string): boolean;
	/** Lets go of what it reads from, if anything. */
	close?(): void;
}
