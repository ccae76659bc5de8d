import type { Outcome } from '../runSlice.js';

/** The most members waiting for their outcome it remembers; past it the oldest is let go uncounted. */
export const MAX_FOLLOWED_WAITING = 100_000;

/** What a job did for the members it took on their own event (joiners, members who changed), not from its listing. */
export interface FollowedCounts {
	/**
	 * When the job's sweep ended and it began following joins (a standing rule), Unix ms; `null`
	 * before, and for a job that does not keep.
	 */
	readonly since: number | null;
	readonly changed: number;
	readonly alreadyDone: number;
	/** Out of the workers' reach, or ranked at or above the requester. */
	readonly cant: number;
	readonly skipped: number;
	readonly left: number;
	readonly failed: number;
	/** When the last of them was changed, Unix ms; `null` before the first. */
	readonly lastChangeAt: number | null;
}

/**
 * The members a job takes on their own event rather than from its listing (a joiner, a member
 * who changed, handed to their worker by `SliceDispatch.joined`), from when their event happened
 * to their outcome: what they came to, and, for each changed, how long it took from their event
 * to the change landing (a standing rule's latency, for the metrics).
 *
 * Only the ids still waiting for their outcome are held, at most {@link MAX_FOLLOWED_WAITING}.
 */
export class FollowedTally {
	/** Member id → when their event happened (Unix ms), until their outcome. */
	readonly #waiting = new Map<string, number>();
	readonly #counts = { changed: 0, alreadyDone: 0, cant: 0, skipped: 0, left: 0, failed: 0 };
	#since: number | null = null;
	#lastChangeAt: number | null = null;

	constructor(readonly now: () => number = Date.now) {}

	/**
	 * `memberId` was handed to their worker for their event at `heardAt` (their join, or when their
	 * change reached us). A member handed again before their outcome keeps their first event.
	 */
	track(memberId: string, heardAt: number): void {
		if (this.#waiting.has(memberId)) return;
		if (this.#waiting.size >= MAX_FOLLOWED_WAITING) this.#waiting.delete(this.#waiting.keys().next().value!);
		this.#waiting.set(memberId, heardAt);
	}

	/** The job's sweep is over: it follows joins from now on. */
	following(): void {
		this.#since ??= this.now();
	}

	/**
	 * `memberId`'s outcome (`failed` for any failure): counted if they were tracked. Returns, for a
	 * change, the milliseconds from their event to now (never below 0: Discord's clock and ours
	 * may differ); `undefined` otherwise.
	 */
	settled(memberId: string, outcome: Outcome | 'failed'): number | undefined {
		const heardAt = this.#waiting.get(memberId);
		if (heardAt === undefined) return undefined;
		this.#waiting.delete(memberId);
		this.#counts[outcome === 'aboveRequester' ? 'cant' : outcome]++;
		if (outcome !== 'changed') return undefined;
		const now = this.now();
		this.#lastChangeAt = now;
		return Math.max(0, now - heardAt);
	}

	/** How many members wait for their outcome. */
	get waiting(): number {
		return this.#waiting.size;
	}

	/** The job ended: nothing more will come for the members still waiting. */
	clear(): void {
		this.#waiting.clear();
	}

	snapshot(): FollowedCounts {
		return { since: this.#since, ...this.#counts, lastChangeAt: this.#lastChangeAt };
	}
}
