import type { RateLimitRule } from '../SandboxOptions.js';
import { Random } from '../state/random.js';

/**
 * Trouble the control API can switch on: slow answers, server errors, a guild-wide write limit
 * shared by all tokens. Per-application faults (members intent, revoked tokens) live on the apps.
 */
export class Faults {
	/** Added before every REST answer. */
	public latencyMs = 0;
	/** Share (0..1) of bot REST requests answered 500 or 502 instead of being handled. */
	public errorRate = 0;
	/** A limit on PATCH member across all tokens in the guild (429 scope `shared`), before time scaling. */
	public sharedWriteLimit: RateLimitRule | null = null;
	readonly #random: Random;

	public constructor(seed: number) {
		this.#random = new Random(seed ^ 0xfa17);
	}

	/** Whether this request should fail with a server error, and which. */
	public serverError(): 500 | 502 | null {
		if (this.errorRate <= 0 || this.#random.next() >= this.errorRate) return null;
		return this.#random.next() < 0.5 ? 500 : 502;
	}

	public reset(): void {
		this.latencyMs = 0;
		this.errorRate = 0;
		this.sharedWriteLimit = null;
	}
}
