/**
 * One token's rate-limit windows as its changes show them. A token at its ceiling sends its
 * allowance in a burst (one request at a time, a round trip each) and then waits for the reset,
 * so a window's first change is the first after a pause of over half a window.
 */
export interface TokenBursts {
	/** From one window's first change to the next window's first change, for each pair that starts in the measured window. */
	periodsMs: number[];
	/** The changes made in each of those periods: 10 for a token at its ceiling. */
	changes: number[];
}

/**
 * Finds the windows of one token whose first change falls in `[from, to)`, from the answer times
 * of its successful changes (ascending, as the sandbox's request log has them), and returns the
 * periods between consecutive ones.
 *
 * A period is the rate-limit window plus how late the next window's first request came: the
 * sandbox opens a window at its first request and discord.js sends the next one only after the
 * reset it was told, plus twice its `offset` (docs/discord.md), plus a round trip.
 */
export function tokenBursts(changedAt: readonly number[], rateLimitWindowMs: number, from: number, to: number): TokenBursts {
	const starts: number[] = [];
	const counts: number[] = [];
	let previous: number | undefined;
	for (const at of changedAt) {
		if (previous === undefined || at - previous > rateLimitWindowMs / 2) {
			if (at >= to) break;
			starts.push(at);
			counts.push(0);
		}
		counts[counts.length - 1]!++;
		previous = at;
	}
	const periodsMs: number[] = [];
	const changes: number[] = [];
	for (let index = 0; index + 1 < starts.length; index++) {
		if (starts[index]! < from) continue;
		periodsMs.push(starts[index + 1]! - starts[index]!);
		changes.push(counts[index]!);
	}
	return { periodsMs, changes };
}
