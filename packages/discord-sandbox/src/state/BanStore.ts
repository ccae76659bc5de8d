/** One ban: the member slot of the banned user (their user object outlives their membership) and why. */
export interface BanRecord {
	userId: bigint;
	/** The user's slot in the member store; a slot is kept after its member leaves. */
	index: number;
	reason: string | null;
}

/**
 * The guild's bans, by user id. Discord lists them sorted by user id and pages them with
 * `before` and `after` (user ids), so the ids are kept sorted too: the sort happens once after a
 * change, when the list is next read, not on every ban of a bulk ban.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#get-guild-bans}
 */
export class BanStore {
	readonly #bans = new Map<bigint, BanRecord>();
	#sorted: bigint[] | null = [];

	public get size(): number {
		return this.#bans.size;
	}

	public get(userId: bigint): BanRecord | undefined {
		return this.#bans.get(userId);
	}

	public has(userId: bigint): boolean {
		return this.#bans.has(userId);
	}

	/** Records a ban; false when the user was banned already (the first ban stands). */
	public add(record: BanRecord): boolean {
		if (this.#bans.has(record.userId)) return false;
		this.#bans.set(record.userId, record);
		this.#sorted = null;
		return true;
	}

	/** Lifts a ban; the record, or undefined when the user was not banned. */
	public remove(userId: bigint): BanRecord | undefined {
		const record = this.#bans.get(userId);
		if (!record) return undefined;
		this.#bans.delete(userId);
		this.#sorted = null;
		return record;
	}

	/**
	 * At most `limit` bans in ascending user id order: those above `after`, or, with `before` alone,
	 * the `limit` closest below it (still ascending); both bounds apply when both are given.
	 */
	public page(options: { limit: number; before?: bigint | undefined; after?: bigint | undefined }): BanRecord[] {
		const ids = this.#ids();
		const { limit, before, after } = options;
		let start = after === undefined ? 0 : upperBound(ids, after);
		const end = before === undefined ? ids.length : lowerBound(ids, before);
		if (after === undefined && before !== undefined) start = Math.max(0, end - limit);
		return ids.slice(start, Math.min(end, start + limit)).map((id) => this.#bans.get(id)!);
	}

	#ids(): bigint[] {
		this.#sorted ??= [...this.#bans.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
		return this.#sorted;
	}
}

/** The first position whose id is at least `id`. */
function lowerBound(ids: readonly bigint[], id: bigint): number {
	let low = 0;
	let high = ids.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if (ids[middle]! < id) low = middle + 1;
		else high = middle;
	}
	return low;
}

/** The first position whose id is above `id`. */
function upperBound(ids: readonly bigint[], id: bigint): number {
	return lowerBound(ids, id + 1n);
}
