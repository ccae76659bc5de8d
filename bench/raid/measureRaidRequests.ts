import type { SandboxRequest } from '@massnick/discord-sandbox';
import { type ChangeRoute, describeChange } from '../ChangeRoute.js';

/** What a subject sent during a raid cleanup, from the sandbox's request log. */
export interface RaidRequests {
	/** When the sandbox answered its first and its last change (Unix ms); null when it made none. */
	firstChangeAt: number | null;
	lastChangeAt: number | null;
	/** Its change requests answered as a change (a bulk ban counts once, for up to 200 accounts). */
	changeRequests: number;
	/** Every request its tokens sent up to its last change, the listing and its messages included. */
	requests: number;
	/** The 429s its tokens got, up to the end of the run. */
	rateLimited429: number;
	/** {@link requests} by `METHOD route status`. */
	byRoute: Record<string, number>;
	/** Whom its answered writes named (a ban, an unban, a member edit, a kick): none may be outside the raid. */
	writeTargets: string[];
}

const WRITES: readonly string[] = ['PUT', 'PATCH', 'DELETE', 'POST'];

/**
 * Reads the requests of the subject's tokens (`botIds`) among `requests`, the log from just
 * before its go to the end of its run.
 */
export function measureRaidRequests(requests: readonly SandboxRequest[], botIds: ReadonlySet<string>, change: ChangeRoute): RaidRequests {
	const own = requests.filter((request) => request.botUserId !== null && botIds.has(request.botUserId));
	const changes = own.filter((request) => request.method === change.method && request.route === change.route && request.status === change.status);
	const times = changes.map((request) => request.at);
	const lastChangeAt = times.length === 0 ? null : times.reduce((latest, at) => Math.max(latest, at));
	const upToLast = lastChangeAt === null ? own : own.filter((request) => request.at <= lastChangeAt);
	const byRoute: Record<string, number> = {};
	for (const request of upToLast) {
		const key = describeChange(request);
		byRoute[key] = (byRoute[key] ?? 0) + 1;
	}
	return {
		firstChangeAt: times.length === 0 ? null : times.reduce((earliest, at) => Math.min(earliest, at)),
		lastChangeAt,
		changeRequests: changes.length,
		requests: upToLast.length,
		rateLimited429: own.filter((request) => request.status === 429).length,
		byRoute,
		writeTargets: own
			.filter((request) => WRITES.includes(request.method) && request.targetId !== null && request.status < 300)
			.map((request) => request.targetId!),
	};
}
