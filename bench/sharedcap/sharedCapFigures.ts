import type { SandboxRequest } from '@massnick/discord-sandbox';

/** The member route whose writes the sandbox's shared cap counts. */
const MEMBER_ROUTE = '/guilds/:id/members/:id';

/** What a run under the guild's shared write cap cost, read from the sandbox's request log. */
export interface SharedCapFigures {
	/** Renames the guild took. */
	changes: number;
	/** Renames it refused with a 429 of scope `shared`. */
	sharedRefusals: number;
	/** `sharedRefusals / changes`: the wasted round trips per rename. */
	refusedPerChange: number;
	/** From the first rename asked to the last taken, in Discord's seconds. */
	seconds: number;
	/** Renames taken per window, over the cap's limit: 1 uses the cap in full. */
	shareOfCap: number;
}

/** The renames asked for in `requests` (PATCH on a member), oldest first. */
export function memberWrites(requests: readonly SandboxRequest[]): SandboxRequest[] {
	return requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_ROUTE);
}

const taken = (request: SandboxRequest): boolean => request.status >= 200 && request.status < 300;

/**
 * The figures of `requests` under a cap of `limit` writes per `windowMs` of Discord's time, on a
 * sandbox that runs `timeScale` times faster than Discord. The cap's capacity over the run counts
 * the windows from the first rename asked to the last taken, plus that last one's own slot (a cap
 * used in full, one slot of `windowMs / limit` a rename, reads 1).
 */
export function sharedCapFigures(requests: readonly SandboxRequest[], cap: { limit: number; windowMs: number }, timeScale: number): SharedCapFigures {
	const writes = memberWrites(requests);
	const done = writes.filter(taken);
	const sharedRefusals = writes.filter((request) => request.status === 429 && request.scope === 'shared').length;
	const first = writes[0]?.at ?? 0;
	const last = done.at(-1)?.at ?? first;
	const seconds = ((last - first) * timeScale) / 1000;
	const windows = (seconds * 1000) / cap.windowMs + 1 / cap.limit;
	return {
		changes: done.length,
		sharedRefusals,
		refusedPerChange: done.length === 0 ? 0 : sharedRefusals / done.length,
		seconds,
		shareOfCap: done.length / (cap.limit * windows),
	};
}

/**
 * How long after `liftedAt` (Unix ms, the sandbox's clock) the workers were back at `share` of
 * `ceiling` renames per `windowMs` of Discord's time: the Discord seconds from the lift to the
 * first rename from which each of two windows in a row took that many. Two, because tokens that
 * were paced below their own limit have their buckets' room left: the first window after the
 * pacing ends can take more than the ceiling, the second only what the workers' own pace gives.
 * `undefined` if they never were.
 */
export function secondsToCeiling(
	requests: readonly SandboxRequest[],
	liftedAt: number,
	options: { ceiling: number; windowMs: number; share: number; timeScale: number },
): number | undefined {
	const done = memberWrites(requests)
		.filter(taken)
		.filter((request) => request.at >= liftedAt)
		.map((request) => request.at);
	const window = options.windowMs / options.timeScale;
	const needed = Math.ceil(options.ceiling * options.share);
	const countFrom = (start: number, end: number): number => {
		let count = 0;
		for (const at of done) if (at >= start && at < end) count++;
		return count;
	};
	for (const at of done) {
		if (countFrom(at, at + window) >= needed && countFrom(at + window, at + 2 * window) >= needed) return ((at - liftedAt) * options.timeScale) / 1000;
	}
	return undefined;
}
