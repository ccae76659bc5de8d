import type { REST } from 'discord.js';
import { sleep } from '../util/sleep.js';

/** Discord's window for invalid requests: 10,000 responses of 401, 403 or 429 per 10 minutes. */
export const INVALID_REQUEST_WINDOW_MS = 10 * 60 * 1000;

/** Discord's ceiling: an address that earns this many invalid answers within the window is banned for a while. */
export const INVALID_REQUEST_LIMIT = 10_000;

/** The scopes Discord names in a 429's `X-RateLimit-Scope`; `none` when it sends none, `other` for a word it never documented. */
export type RateLimitScope = 'user' | 'global' | 'shared' | 'none' | 'other';

/** The invalid answers the guard has seen since it began, for metrics: they only grow. */
export interface InvalidRequestTotals {
	/** Answers that count towards Discord's limit, by status (a shared 429 is in none of them). */
	readonly byStatus: Readonly<Record<401 | 403 | 429, number>>;
	/** Every 429, shared ones included, by its `X-RateLimit-Scope`. */
	readonly rateLimitedByScope: Readonly<Record<RateLimitScope, number>>;
}

/**
 * Keeps the whole process far below Discord's invalid-request ceiling.
 *
 * Discord counts 401, 403 and 429 answers per IP address, and every token in this process shares
 * one address: past 10,000 in 10 minutes Discord's edge refuses every request for a while, which
 * would stop every worker at once. The guard watches every client's responses and, once the
 * count in the window nears its budget, holds new requests until old ones age out of the window.
 * A 429 with `X-RateLimit-Scope: shared` does not count, as on Discord.
 * See https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans
 */
export class InvalidRequestGuard {
	readonly #times: number[] = [];
	#head = 0;
	readonly #byStatus = { 401: 0, 403: 0, 429: 0 };
	readonly #byScope: Record<RateLimitScope, number> = { user: 0, global: 0, shared: 0, none: 0, other: 0 };

	constructor(
		readonly budget: number,
		readonly windowMs: number = INVALID_REQUEST_WINDOW_MS,
		readonly now: () => number = Date.now,
	) {}

	/** Listens to a client's responses. */
	watch(rest: REST): void {
		rest.on('response', (_request, response) => {
			const status = response.status;
			if (status !== 401 && status !== 403 && status !== 429) return;
			if (status === 429) {
				const scope = scopeOf(response.headers.get('x-ratelimit-scope'));
				this.#byScope[scope]++;
				if (scope === 'shared') return;
			}
			this.#byStatus[status]++;
			this.record();
		});
	}

	/** What the guard has seen since it began (see {@link InvalidRequestTotals}). */
	get totals(): InvalidRequestTotals {
		return { byStatus: { ...this.#byStatus }, rateLimitedByScope: { ...this.#byScope } };
	}

	record(): void {
		this.#times.push(this.now());
	}

	/** Invalid responses within the current window. */
	get count(): number {
		this.#expire();
		return this.#times.length - this.#head;
	}

	/** Resolves when another request may go out; waits while the window is at the budget. */
	async ready(signal?: AbortSignal): Promise<void> {
		while (this.count >= this.budget) {
			const oldest = this.#times[this.#head]!;
			await sleep(Math.max(10, oldest + this.windowMs - this.now()), signal);
		}
	}

	#expire(): void {
		const cutoff = this.now() - this.windowMs;
		while (this.#head < this.#times.length && this.#times[this.#head]! <= cutoff) this.#head++;
		if (this.#head > 4096 && this.#head * 2 > this.#times.length) {
			this.#times.splice(0, this.#head);
			this.#head = 0;
		}
	}
}

function scopeOf(header: string | null): RateLimitScope {
	if (header === null) return 'none';
	return header === 'user' || header === 'global' || header === 'shared' ? header : 'other';
}
