/**
 * When a standing rule that follows joins is worth showing again (its status message, its log
 * line): once what it shows has changed, and then at most once every `everyMs`; with
 * `idleEveryMs`, also once that long has passed whatever it shows (a log's sign of life). A rule
 * runs for months, and each edit of a Discord message counts against the rate limits, so an idle
 * rule shows nothing new and a busy one is summed up, not told change by change.
 *
 * Pure: the caller gives the time, and what it would show as a key (see {@link followedKey}).
 */
export class FollowingPace {
	#shown: string | undefined;
	#shownAt = Number.NEGATIVE_INFINITY;

	constructor(
		readonly everyMs: number,
		readonly idleEveryMs?: number,
	) {}

	/** Whether to show `key` now: it changed since last shown, `everyMs` ago or more, or `idleEveryMs` has passed. */
	due(key: string, now: number): boolean {
		const since = now - this.#shownAt;
		if (this.idleEveryMs !== undefined && since >= this.idleEveryMs) return true;
		return key !== this.#shown && since >= this.everyMs;
	}

	/** `key` was shown at `now` (by the pace's turn or not: a state change, a press of Refresh). */
	shown(key: string, now: number): void {
		this.#shown = key;
		this.#shownAt = now;
	}
}

/**
 * A following rule's figures as a {@link FollowingPace} key: members handed to it and members
 * with an outcome, which move whenever any count it shows does.
 */
export function followedKey(figures: { readonly total: number; readonly done: number }): string {
	return `${figures.total}/${figures.done}`;
}
