/** How many listed pages' ids a job remembers to tell a late join event from a new member. */
export const RECENT_PAGES = 16;

/**
 * Decides, for each member who joins while a job runs, whether the job must assign them itself
 * or the listing does, so that a joiner is changed once: the listing and the gateway race.
 *
 * A joiner above where the listing has reached is the listing's to find: they are deferred until
 * a page passes their id, and assigned then only if that page did not hold them (they joined
 * after it was read). A joiner the listing has passed (an old account joining now) is assigned at
 * once, unless a recent page held them: a join event that arrives after the page with the member
 * (the gateway lags REST; a resume replays late) must not assign them twice. Only the last
 * {@link RECENT_PAGES} pages are remembered, so memory stays bounded: a join event later than that
 * is taken for a new member.
 *
 * A listing that may wait for hours (a rule's catch-up at low priority, `atOnce`) cannot hold
 * joiners back: each is assigned at once, and the listing skips them if a later page holds them
 * ({@link takenAlready}); only their ids are kept, until the listing passes them.
 *
 * Pure: it is fed the pages as they are handed out and the join events, and answers who to assign.
 */
export class JoinerReconciler<T extends { readonly id: string }> {
	/** Joiners seen while the listing was still running, above where it had reached, by id. */
	readonly #deferred = new Map<string, T>();
	/** The ids of the last pages listed, oldest first. */
	#recentPages: Array<ReadonlySet<string>> = [];
	/** With `atOnce`: joiners assigned above where the listing had reached, for it to skip. */
	readonly #taken = new Set<string>();
	#listedUpTo = 0n;
	#listingDone = false;

	constructor(
		readonly recentPages = RECENT_PAGES,
		readonly atOnce = false,
	) {}

	/** The highest member id the listing has handed out; joiners above it are its to find. */
	get listedUpTo(): bigint {
		return this.#listedUpTo;
	}

	get listingDone(): boolean {
		return this.#listingDone;
	}

	/** A member joined: `true` when the job must assign them now, `false` when the listing does or did. */
	joined(member: T): boolean {
		if (this.#listedRecently(member.id)) return false;
		if (!this.#listingDone && BigInt(member.id) > this.#listedUpTo) {
			if (this.atOnce) {
				this.#taken.add(member.id);
				return true;
			}
			// Whether the listing reached them is settled page by page (see listed).
			this.#deferred.set(member.id, member);
			return false;
		}
		return true;
	}

	/** With `atOnce`: whether a join event assigned this listed member already (the listing skips them). */
	takenAlready(id: string): boolean {
		return this.#taken.delete(id);
	}

	/**
	 * A page was handed out (its member ids, in id order): returns the deferred joiners whose id it
	 * has now passed without listing them, to assign now.
	 */
	listed(ids: readonly string[]): T[] {
		this.#recentPages.push(new Set(ids));
		if (this.#recentPages.length > this.recentPages) this.#recentPages.shift();
		const last = ids.at(-1);
		if (last !== undefined) this.#listedUpTo = BigInt(last);
		// Joiners the listing has passed without a page holding them: no later page will.
		for (const id of this.#taken) if (BigInt(id) <= this.#listedUpTo) this.#taken.delete(id);
		return this.#settle(this.#listedUpTo);
	}

	/** The listing ended, or stopped: returns every joiner still deferred that no recent page held. */
	listingEnded(): T[] {
		this.#listingDone = true;
		this.#taken.clear();
		return this.#settle(undefined);
	}

	/** Forgets the joiners and pages it holds (the run ended); the listing stays done. */
	clear(): void {
		this.#deferred.clear();
		this.#taken.clear();
		this.#recentPages = [];
	}

	#listedRecently(id: string): boolean {
		return this.#recentPages.some((page) => page.has(id));
	}

	/** The deferred joiners at or below `upTo` (all with `undefined`) that no recent page held. */
	#settle(upTo: bigint | undefined): T[] {
		const assign: T[] = [];
		for (const [id, member] of this.#deferred) {
			if (upTo !== undefined && BigInt(id) > upTo) continue;
			this.#deferred.delete(id);
			if (!this.#listedRecently(id)) assign.push(member);
		}
		return assign;
	}
}
