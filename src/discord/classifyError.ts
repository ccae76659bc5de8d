import { DiscordAPIError, HTTPError, RateLimitError, RESTJSONErrorCodes } from 'discord.js';

/**
 * What a failed request means for the job.
 *
 * - `left`: the member is gone (10007 Unknown Member); counted apart from failures.
 * - `permanent`: retrying cannot help (50013, 50035, other 4xx); counted as failed with `reason`.
 * - `transient`: 5xx, time-outs and dropped connections; retried with backoff.
 * - `revoked`: Discord rejected the token (401); the worker stops.
 * - `aborted`: the job was cancelled while the request waited.
 */
export type ErrorClass =
	| { kind: 'left' }
	| { kind: 'permanent'; reason: string }
	| { kind: 'transient'; reason: string }
	| { kind: 'revoked' }
	| { kind: 'aborted' };

const networkCodes = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** Sorts any error thrown by a discord.js REST call into an {@link ErrorClass}. */
export function classifyError(error: unknown, signal?: AbortSignal): ErrorClass {
	if (signal?.aborted) return { kind: 'aborted' };
	if (error instanceof DiscordAPIError) {
		if (error.status === 401) return { kind: 'revoked' };
		if (error.code === RESTJSONErrorCodes.UnknownMember) return { kind: 'left' };
		if (error.code === RESTJSONErrorCodes.MissingPermissions) return { kind: 'permanent', reason: 'missing-permissions' };
		if (error.code === RESTJSONErrorCodes.InvalidFormBodyOrContentType) return { kind: 'permanent', reason: 'invalid-nickname' };
		if (error.status >= 500) return { kind: 'transient', reason: `http-${error.status}` };
		return { kind: 'permanent', reason: `discord-${error.code}` };
	}
	if (error instanceof HTTPError) {
		return error.status >= 500 ? { kind: 'transient', reason: `http-${error.status}` } : { kind: 'permanent', reason: `http-${error.status}` };
	}
	if (error instanceof RateLimitError) return { kind: 'transient', reason: 'rate-limited' };
	if (error instanceof Error) {
		// discord.js aborts a request that outlives `rest.timeout` with an AbortError of its own.
		if (error.name === 'AbortError' || error.name === 'TimeoutError') return { kind: 'transient', reason: 'timeout' };
		const code = (error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code;
		if (code && networkCodes.has(code)) return { kind: 'transient', reason: 'connection' };
		if (error.message === 'Expected token to be set for this request, but none was present') return { kind: 'revoked' };
		if (error.message.includes('fetch failed') || error.message.includes('other side closed')) return { kind: 'transient', reason: 'connection' };
	}
	return { kind: 'permanent', reason: 'unknown-error' };
}

/** Exponential backoff with full jitter (AWS's "full jitter"): uniform in [0, min(max, base * 2^attempt)]. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
	return Math.round(random() * Math.min(maxMs, baseMs * 2 ** attempt));
}
