import type { RateLimitDecision } from './RateLimiter.js';

/** Seconds with millisecond precision, rounded up so that waiting this long is never too early. */
export function secondsUp(ms: number): string {
	return (Math.ceil(Math.max(0, ms)) / 1000).toFixed(3);
}

/**
 * The `X-RateLimit-*` headers Discord sends on every response of a rate-limited route.
 * `X-RateLimit-Reset` is epoch seconds and `X-RateLimit-Reset-After` seconds from now, both with
 * millisecond precision.
 *
 * @see {@link https://discord.com/developers/docs/topics/rate-limits#header-format}
 */
export function rateLimitHeaders(decision: RateLimitDecision, bucketHash: string, now: number): Record<string, string> {
	return {
		'X-RateLimit-Limit': String(decision.limit),
		'X-RateLimit-Remaining': String(decision.remaining),
		'X-RateLimit-Reset': secondsUp(decision.resetAt),
		'X-RateLimit-Reset-After': secondsUp(decision.resetAt - now),
		'X-RateLimit-Bucket': bucketHash,
	};
}

/**
 * `Retry-After` as Discord sends it: whole seconds, rounded up. With a time scale, windows can
 * be shorter than a second, where a whole number would make clients wait many windows (or, if
 * rounded down, retry too early); then the exact value is sent with decimals (`0.250`), which
 * discord.js reads with `Number()`.
 */
export function retryAfterHeader(ms: number, timeScale: number): string {
	return timeScale === 1 ? String(Math.max(1, Math.ceil(ms / 1000))) : secondsUp(ms);
}

/** `retry_after` in a 429 body: float seconds, rounded up to the millisecond. */
export function retryAfterSeconds(ms: number): number {
	return Math.ceil(Math.max(0, ms)) / 1000;
}
