/** What one token making changes (a massnick worker, a baseline's client) did during the measured window. */
export interface TokenActivity {
	/** The token's bot user id. */
	botUserId: string;
	changesInWindow: number;
	/**
	 * The longest time between two of its successful changes, over the gaps that overlap the
	 * window. A gap still open at the window's end runs to the token's next change after it, or
	 * to the window's end if none came (a token that stopped shows a gap to the end); a token with
	 * no change in the window shows the whole window or more.
	 */
	longestGapMs: number;
}

/**
 * One token's activity in `[from, to)`, from the answer times of its successful changes
 * (ascending, from the sandbox's request log; they may start before `from` and end after `to`).
 *
 * A token changing members at its ceiling makes its allowance in a burst and then waits for the
 * window to reset, so its gaps are up to about one rate-limit window long; a token the listing
 * starved (its queue empty while the boss waits on its own limit) would show gaps of several
 * windows.
 */
export function tokenActivity(botUserId: string, changedAt: readonly number[], from: number, to: number): TokenActivity {
	let changesInWindow = 0;
	// The gap open at `from` began at the last change before it (or at `from`, if none came before).
	let previous = from;
	let longestGapMs = 0;
	for (const at of changedAt) {
		if (at < from) {
			previous = at;
			continue;
		}
		longestGapMs = Math.max(longestGapMs, at - previous);
		if (at >= to) return { botUserId, changesInWindow, longestGapMs };
		changesInWindow++;
		previous = at;
	}
	return { botUserId, changesInWindow, longestGapMs: Math.max(longestGapMs, to - previous) };
}
