import type { RateLimitRule } from '../SandboxOptions.js';

interface AddressState {
	count: number;
	windowEnd: number;
	total: number;
	bannedUntil: number;
}

/**
 * Discord's invalid-request ceiling ("Cloudflare ban"): 401, 403 and 429 answers (except 429s
 * of scope `shared`) are counted per client address; an address that reaches the limit within
 * the window is refused everything for a while.
 *
 * @see {@link https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans}
 */
export class InvalidRequestTracker {
	readonly #addresses = new Map<string, AddressState>();

	public constructor(
		private readonly rule: RateLimitRule & { banMs: number },
		private readonly now: () => number,
	) {}

	/** Milliseconds the address stays banned, or 0. */
	public bannedFor(address: string): number {
		const state = this.#addresses.get(address);
		return state ? Math.max(0, state.bannedUntil - this.now()) : 0;
	}

	/** Counts the answer if it is an invalid request; bans the address when it reaches the limit. */
	public record(address: string, status: number, scope: string | null): void {
		if (status !== 401 && status !== 403 && status !== 429) return;
		if (scope === 'shared') return;
		const now = this.now();
		let state = this.#addresses.get(address);
		if (!state) this.#addresses.set(address, (state = { count: 0, windowEnd: 0, total: 0, bannedUntil: 0 }));
		if (state.windowEnd <= now) {
			state.count = 0;
			state.windowEnd = now + this.rule.windowMs;
		}
		state.count++;
		state.total++;
		if (state.count >= this.rule.limit && state.bannedUntil <= now) state.bannedUntil = now + this.rule.banMs;
	}

	/** Invalid requests per address: in the current window, and since the start. */
	public summary(): Array<{ address: string; inWindow: number; total: number; bannedForMs: number }> {
		const now = this.now();
		return [...this.#addresses].map(([address, state]) => ({
			address,
			inWindow: state.windowEnd > now ? state.count : 0,
			total: state.total,
			bannedForMs: Math.max(0, state.bannedUntil - now),
		}));
	}

	public clear(): void {
		this.#addresses.clear();
	}
}
