/**
 * Discord's 2025 limit on requesting a whole member list: one op 8 with `query: ""` and `limit: 0`
 * per guild per bot every 30 s; a second one is answered with a RATE_LIMITED dispatch instead of
 * chunks ({@link https://discord.com/developers/docs/change-log#introducing-rate-limit-when-requesting-all-guild-members | changelog 2025-08-14}).
 *
 * Keyed by application, not by session, because the changelog says "per guild per bot".
 */
export class MemberRequestLimiter {
	readonly #lastAcceptedAt = new Map<string, number>();

	public constructor(
		private readonly windowMs: number,
		private readonly now: () => number = Date.now,
	) {}

	/** Records an all-members request; returns 0 when allowed, else the milliseconds left to wait. */
	public take(appId: string, guildId: string): number {
		const key = `${appId}:${guildId}`;
		const now = this.now();
		const last = this.#lastAcceptedAt.get(key);
		if (last !== undefined && now - last < this.windowMs) return last + this.windowMs - now;
		this.#lastAcceptedAt.set(key, now);
		return 0;
	}
}
