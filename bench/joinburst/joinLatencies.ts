/** One timeout as the sandbox answered it: whom, and when (Unix ms, the sandbox's clock). */
export interface AnsweredTimeout {
	readonly targetId: string;
	readonly at: number;
}

/** How each joiner of a burst was met by the rule, from the sandbox's own records. */
export interface JoinLatencies {
	/** From each joiner's join to the sandbox's answer to their first timeout, in ms of the sandbox's clock, ascending; joiners never timed out are not in it. */
	readonly latenciesMs: readonly number[];
	/** When each joiner who was timed out joined, and when their first timeout was answered (Unix ms), in join order. */
	readonly handled: ReadonlyArray<{ readonly joinedAt: number; readonly timedOutAt: number }>;
	/** Joiners no timeout reached. */
	readonly notTimedOut: readonly string[];
	/** Joiners timed out more than once. */
	readonly timedOutAgain: readonly string[];
	/** Anyone else a timeout was answered for. */
	readonly outside: readonly string[];
}

/**
 * Pairs each joiner (`joins`: id → when the sandbox added them, Unix ms) with the first timeout
 * the sandbox answered for them (`timeouts`, in any order), and says who was timed out twice, who
 * never, and who outside the burst at all. Pure: the bench feeds it the guild's members and the
 * request log.
 */
export function joinLatencies(joins: ReadonlyMap<string, number>, timeouts: Iterable<AnsweredTimeout>): JoinLatencies {
	const first = new Map<string, number>();
	const again = new Set<string>();
	const outside = new Set<string>();
	for (const { targetId, at } of timeouts) {
		if (!joins.has(targetId)) outside.add(targetId);
		else if (first.has(targetId)) {
			again.add(targetId);
			first.set(targetId, Math.min(first.get(targetId)!, at));
		} else first.set(targetId, at);
	}
	const handled: Array<{ joinedAt: number; timedOutAt: number }> = [];
	const notTimedOut: string[] = [];
	for (const [id, joinedAt] of joins) {
		const timedOutAt = first.get(id);
		if (timedOutAt === undefined) notTimedOut.push(id);
		else handled.push({ joinedAt, timedOutAt });
	}
	handled.sort((a, b) => a.joinedAt - b.joinedAt);
	return {
		latenciesMs: handled.map(({ joinedAt, timedOutAt }) => timedOutAt - joinedAt).sort((a, b) => a - b),
		handled,
		notTimedOut,
		timedOutAgain: [...again],
		outside: [...outside].sort(),
	};
}
