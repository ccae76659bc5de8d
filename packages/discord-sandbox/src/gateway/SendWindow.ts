/**
 * Counts what one connection sends, in fixed windows that start when the connection opens.
 *
 * Discord allows 120 gateway sends per connection per 60 s and disconnects a client that sends
 * more ({@link https://discord.com/developers/docs/events/gateway#rate-limiting | Rate limiting}).
 * The window is fixed rather than sliding because that is how `@discordjs/ws` paces itself
 * (115 per window, reset 60 s after the socket opens): a sliding window would punish a client that
 * is obeying its own, documented-compatible budget at a window boundary.
 */
export class SendWindow {
	#windowEndsAt: number;
	#sent = 0;

	public constructor(
		private readonly limit: number,
		private readonly windowMs: number,
		private readonly now: () => number = Date.now,
	) {
		this.#windowEndsAt = now() + windowMs;
	}

	/** Records one send; false when it goes over the limit. */
	public record(): boolean {
		const now = this.now();
		if (now >= this.#windowEndsAt) {
			this.#windowEndsAt = now + this.windowMs;
			this.#sent = 0;
		}
		this.#sent++;
		return this.#sent <= this.limit;
	}
}
