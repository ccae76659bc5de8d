/** Counters for one client (a bot, or requests without a known token). */
export interface ClientStats {
	requests: number;
	byStatus: Record<string, number>;
	rateLimited: number;
}

/** Request counters per bot user id (never per token), and for everyone else under `null`. */
export class RequestStats {
	readonly #clients = new Map<string | null, ClientStats>();

	public record(botUserId: string | null, status: number): void {
		let stats = this.#clients.get(botUserId);
		if (!stats) this.#clients.set(botUserId, (stats = { requests: 0, byStatus: {}, rateLimited: 0 }));
		stats.requests++;
		stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1;
		if (status === 429) stats.rateLimited++;
	}

	public get(botUserId: string | null): ClientStats {
		return this.#clients.get(botUserId) ?? { requests: 0, byStatus: {}, rateLimited: 0 };
	}

	public totals(): ClientStats {
		const total: ClientStats = { requests: 0, byStatus: {}, rateLimited: 0 };
		for (const stats of this.#clients.values()) {
			total.requests += stats.requests;
			total.rateLimited += stats.rateLimited;
			for (const [status, count] of Object.entries(stats.byStatus)) total.byStatus[status] = (total.byStatus[status] ?? 0) + count;
		}
		return total;
	}
}
