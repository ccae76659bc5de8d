/** One dispatch a session was sent (or would have been sent while it was disconnected). */
export interface BufferedDispatch {
	s: number;
	t: string;
	/** The event data as JSON; shared between the sessions that received the same event. */
	d: string;
}

/**
 * The recent dispatches of one session, kept so a Resume (op 6) can replay what the client missed.
 *
 * Bounded both by count and by the size of the JSON held, so a resumable session that stays
 * disconnected during a burst of events (or a 1,000,000-member GUILD_MEMBERS_CHUNK stream) costs a
 * fixed amount of memory. When old entries are dropped, resuming from before them is impossible
 * and the session is answered with Invalid Session instead
 * ({@link https://discord.com/developers/docs/events/gateway#resuming | Resuming}).
 */
export class ReplayBuffer {
	#entries: Array<BufferedDispatch | undefined>;
	#start = 0;
	#size = 0;
	#bytes = 0;
	#droppedThrough = 0;
	readonly #maxBytes: number;

	public constructor(maxEntries: number, maxBytes: number) {
		this.#entries = new Array<BufferedDispatch | undefined>(Math.max(1, maxEntries));
		this.#maxBytes = maxBytes;
	}

	/** The highest sequence number no longer available for replay (0 if none was dropped). */
	public get droppedThrough(): number {
		return this.#droppedThrough;
	}

	public push(entry: BufferedDispatch): void {
		if (this.#size === this.#entries.length) this.#dropOldest();
		this.#entries[(this.#start + this.#size) % this.#entries.length] = entry;
		this.#size++;
		this.#bytes += entry.d.length;
		while (this.#bytes > this.#maxBytes && this.#size > 1) this.#dropOldest();
	}

	/** Marks everything up to `sequence` as unavailable, for dispatches that must never be replayed (READY). */
	public forgetThrough(sequence: number): void {
		while (this.#size > 0 && this.#entries[this.#start]!.s <= sequence) this.#dropOldest();
		this.#droppedThrough = Math.max(this.#droppedThrough, sequence);
	}

	/** The buffered dispatches with `s` greater than `sequence`, oldest first. */
	public *after(sequence: number): Generator<BufferedDispatch> {
		for (let index = 0; index < this.#size; index++) {
			const entry = this.#entries[(this.#start + index) % this.#entries.length]!;
			if (entry.s > sequence) yield entry;
		}
	}

	#dropOldest(): void {
		const oldest = this.#entries[this.#start]!;
		this.#entries[this.#start] = undefined;
		this.#start = (this.#start + 1) % this.#entries.length;
		this.#size--;
		this.#bytes -= oldest.d.length;
		this.#droppedThrough = Math.max(this.#droppedThrough, oldest.s);
	}
}
