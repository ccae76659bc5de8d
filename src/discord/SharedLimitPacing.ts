/** How the pacing learns and probes; every field has a default (see {@link SharedLimitPacing}). */
export interface SharedLimitPacingOptions {
	/** The clock, in ms; a seam for tests. */
	now?: () => number;
	/** Writes go this much slower than the learned cap, so a late timer never squeezes one more into a window. */
	margin?: number;
	/** Each quiet window multiplies the rate by this much while probing for a lifted cap. */
	probeFactor?: number;
	/** Past this multiple of the learned cap the pacing ends: the workers go at their own pace again. */
	maxFactor?: number;
	/** How far back the first shared 429 looks for the writes that filled the window, when nothing is known yet. */
	historyMs?: number;
}

/** What the pacing knows now, for logs and the bench. */
export interface SharedLimitState {
	/** Writes the guild took per window when it last refused one. */
	readonly limit: number;
	/** The guild's window, in ms. */
	readonly windowMs: number;
	/** The pace as a multiple of `limit` per window: 1 holds to the cap, more probes above it. */
	readonly factor: number;
}

/**
 * The guild's write rate as this process learns it from Discord's shared-scope 429s, and the pace
 * that follows from it. Pure: every method takes the time from the injected clock, nothing waits.
 *
 * A 429 with `X-RateLimit-Scope: shared` says the resource (here the guild) took all the writes it
 * takes in its window, from every bot, and `Retry-After` says when that window ends. The writes of
 * ours that got through in the window are the share of the cap this process may use; spread evenly
 * over the window (a little slower, by `margin`), they fill each window without a refusal. The
 * window is the time between two refusals' resets when they come one window apart, or, for the
 * first refusal, from the first write the window can have held to its reset.
 *
 * Nothing tells a client that a cap lifted, so the pace probes: a window without a shared 429
 * multiplies it by `probeFactor`, and so do more than two caps' worth of writes taken in less than
 * a window (the old cap cannot be in force: such a span touches two of its windows at most), until
 * it passes `maxFactor` and the pacing ends. A probe under
 * a cap that still holds costs one refused request and uses the window in full (the writes before
 * the refusal are the window's cap), then the pace learns the cap again and holds to it a window.
 * See https://discord.com/developers/docs/topics/rate-limits ("properly handle 429 responses").
 */
export class SharedLimitPacing {
	readonly #now: () => number;
	readonly #margin: number;
	readonly #probeFactor: number;
	readonly #maxFactor: number;
	readonly #historyMs: number;
	/** When each write of ours that the guild took was answered, oldest first, for `historyMs`. */
	readonly #writes: number[] = [];
	#head = 0;
	#limit = 0;
	#windowMs = 0;
	/** The pace as a multiple of the cap; 0 while not pacing. */
	#factor = 0;
	/** No write goes before this: the guild's window that refused one ends then. */
	#holdUntil = 0;
	/** The reset of the last refusal learned from. */
	#lastReset: number | undefined;
	/**
	 * The first refusal's guess is being checked: the window after its hold goes at twice the
	 * guessed rate, so the guild refuses again in it and the two resets measure its window exactly.
	 */
	#measuring = false;
	#stageStart = 0;
	#stageWrites = 0;
	#lastSent = Number.NEGATIVE_INFINITY;

	constructor(options: SharedLimitPacingOptions = {}) {
		this.#now = options.now ?? Date.now;
		this.#margin = options.margin ?? 0.02;
		this.#probeFactor = options.probeFactor ?? 4;
		this.#maxFactor = options.maxFactor ?? 4;
		this.#historyMs = options.historyMs ?? 60_000;
	}

	/** Whether writes are paced now. */
	get pacing(): boolean {
		this.#advance(this.#now());
		return this.#factor > 0;
	}

	/** What was learned, or `undefined` while not pacing. */
	get state(): SharedLimitState | undefined {
		if (!this.pacing) return undefined;
		return { limit: this.#limit, windowMs: this.#windowMs, factor: this.#factor };
	}

	/** Ms between two writes at the current pace (0 while not pacing). */
	get intervalMs(): number {
		if (!this.pacing) return 0;
		return (this.#windowMs * (1 + this.#margin)) / (this.#limit * this.#factor);
	}

	/** When the next write may go out: now unless paced. */
	sendAt(): number {
		const now = this.#now();
		if (!this.pacing) return now;
		return Math.max(now, this.#holdUntil, this.#lastSent + this.intervalMs);
	}

	/** A write went out now. */
	sent(): void {
		this.#lastSent = this.#now();
	}

	/** The guild took one of our writes (any answer but a 429 or a 5xx). */
	wrote(): void {
		const now = this.#now();
		this.#writes.push(now);
		this.#forget(now);
		if (this.#factor > 0 && now >= this.#stageStart) this.#stageWrites++;
		this.#advance(now);
	}

	/**
	 * The guild refused a write, scope shared, its window ending `retryAfterMs` from now. Refusals
	 * of the window already learned from (the other workers' requests on the wire) change nothing.
	 * @returns whether the pace changed.
	 */
	refused(retryAfterMs: number): boolean {
		const now = this.#now();
		if (now < this.#holdUntil) return false;
		const reset = now + Math.max(0, retryAfterMs);
		let start: number;
		const measured = this.#measuring;
		if (this.#lastReset !== undefined && this.#windowMs > 0 && now - this.#lastReset < this.#windowMs) {
			// The window right after the last one: it opened when the writes held for it went.
			start = this.#lastReset;
			this.#windowMs = reset - start;
		} else if (this.#windowMs > 0) {
			start = reset - this.#windowMs;
		} else {
			// The first refusal: the window held the writes since the first one it can have held.
			// A guess when the cap came after the first write: hence the check that follows.
			start = this.#firstWriteSince(now - this.#historyMs) ?? now;
			this.#windowMs = Math.max(1, reset - start);
			this.#measuring = true;
		}
		if (measured) this.#measuring = false;
		this.#limit = Math.max(1, this.#countSince(start));
		this.#factor = this.#measuring ? 2 : 1;
		this.#holdUntil = reset;
		this.#lastReset = reset;
		this.#stageStart = reset;
		this.#stageWrites = 0;
		return true;
	}

	/** Raises the pace after a quiet window, or more than two caps' worth of writes taken in less than one. */
	#advance(now: number): void {
		while (this.#factor > 0 && now >= this.#stageStart) {
			const quietWindow = now - this.#stageStart >= this.#windowMs;
			if (this.#measuring) {
				// Twice the guess went through a whole window: the guess tells nothing; the next
				// refusal is learnt from as a first one.
				if (!quietWindow) return;
				this.#measuring = false;
				this.#factor = 0;
				this.#windowMs = 0;
				this.#lastReset = undefined;
				return;
			}
			// Twice: a span shorter than a window can straddle two windows, each taking a cap's worth.
			const pastOldCap = this.#factor > 1 && this.#stageWrites > (2 * this.#limit * this.#factor) / this.#probeFactor;
			if (!quietWindow && !pastOldCap) return;
			this.#factor *= this.#probeFactor;
			if (this.#factor > this.#maxFactor) this.#factor = 0;
			// A clock that jumped over several quiet windows passes a stage for each.
			this.#stageStart = pastOldCap ? now : this.#stageStart + this.#windowMs;
			this.#stageWrites = 0;
		}
	}

	#firstWriteSince(since: number): number | undefined {
		for (let i = this.#head; i < this.#writes.length; i++) if (this.#writes[i]! >= since) return this.#writes[i];
		return undefined;
	}

	#countSince(since: number): number {
		let count = 0;
		for (let i = this.#writes.length - 1; i >= this.#head && this.#writes[i]! >= since; i--) count++;
		return count;
	}

	#forget(now: number): void {
		const keep = Math.max(this.#historyMs, this.#windowMs * 2);
		while (this.#head < this.#writes.length && this.#writes[this.#head]! < now - keep) this.#head++;
		if (this.#head > 1024 && this.#head * 2 > this.#writes.length) {
			this.#writes.splice(0, this.#head);
			this.#head = 0;
		}
	}
}
