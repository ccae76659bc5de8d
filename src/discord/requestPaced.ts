import { type InternalRequest, parseResponse, type REST } from 'discord.js';
import { sleep as defaultSleep } from '../util/sleep.js';

/**
 * Sends `request` with discord.js and, when Discord's answer leaves nothing of the route's bucket,
 * waits out its reset before resolving with the parsed body.
 *
 * discord.js learns a route's bucket from its first answer and moves the route to a queue of
 * that bucket, which starts knowing nothing (one request left, no reset): on a bucket of one
 * request a window, the second request would go at once and earn a 429 (`SequentialHandler`'s
 * `remaining = 1`). A caller that sends one request at a time on the route (each worker's bulk
 * bans) waits here instead, so the second goes after the reset. A wait cut short by `signal`
 * still resolves: the request was made, and its answer counts.
 */
export async function requestPaced(rest: REST, request: InternalRequest, sleep = defaultSleep): Promise<unknown> {
	const response = await rest.queueRequest(request);
	const body = await parseResponse(response);
	const remaining = response.headers.get('x-ratelimit-remaining');
	const resetAfter = Number(response.headers.get('x-ratelimit-reset-after'));
	if (remaining === '0' && resetAfter > 0) {
		const offset = typeof rest.options.offset === 'number' ? rest.options.offset : 0;
		await sleep(resetAfter * 1000 + offset, request.signal ?? undefined).catch(() => undefined);
	}
	return body;
}
