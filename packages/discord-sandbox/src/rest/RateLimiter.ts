import type { RateLimitRule } from '../SandboxOptions.js';

/** The state of one bucket after a request was counted (or refused). */
export interface RateLimitDecision {
	allowed: boolean;
	limit: number;
	/** Requests left in the window after this one. */
	remaining: number;
	/** Unix ms at which the window ends. */
	resetAt: number;
}

interface Window {
	count: number;
	resetAt: number;
}

/**
 * Fixed-window counters, as Discord's buckets behave from a client's point of view: a window
 * opens at the first request and allows `limit` requests until `windowMs` later. Keys are
 * opaque to the limiter; the router builds them from (token, bucket, major parameter).
 *
 * @see {@link https://discord.com/developers/docs/topics/rate-limits}
 */
export class RateLimiter {
	readonly #windows = new Map<string, Window>();
	#nextSweep = 0;

	public constructor(private readonly now: () => number) {}

	/** Counts a request against `key` unless its window is already full. */
	public hit(key: string, rule: RateLimitRule): RateLimitDecision {
		const now = this.now();
		this.#sweep(now);
		let window = this.#windows.get(key);
		if (!window || window.resetAt <= now) {
			window = { count: 0, resetAt: now + rule.windowMs };
			this.#windows.set(key, window);
		}
		if (window.count >= rule.limit) return { allowed: false, limit: rule.limit, remaining: 0, resetAt: window.resetAt };
		window.count++;
		return { allowed: true, limit: rule.limit, remaining: rule.limit - window.count, resetAt: window.resetAt };
	}

	/** Forgets every window (the faults endpoint's reset). */
	public clear(): void {
		this.#windows.clear();
	}

	/** Drops expired windows now and then, so a long run with many keys doesn't grow without end. */
	#sweep(now: number): void {
		if (now < this.#nextSweep) return;
		this.#nextSweep = now + 10_000;
		for (const [key, window] of this.#windows) if (window.resetAt <= now) this.#windows.delete(key);
	}
}
