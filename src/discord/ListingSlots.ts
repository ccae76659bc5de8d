import { type REST, RESTEvents } from 'discord.js';
import { sleep as defaultSleep } from '../util/sleep.js';

/**
 * The share of a shared token's allowance the slots leave unused: room for a host's clock being
 * a little off, and for the boss's own listing when `/status` counts a fleet's job.
 */
export const SLOT_HEADROOM = 0.9;

/**
 * How long one page takes of a token's allowance until Discord's headers say: List Guild Members
 * at about 10 per 10 s (docs/discord.md).
 */
export const DEFAULT_PAGE_MS = 1000;

export interface ListingSlotsOptions {
	/** The workers this process holds: each owns one slot of every cycle. */
	heldWorkers: readonly number[];
	/** `WORKER_COUNT`: a cycle has one slot per worker of the whole fleet. */
	workerCount: number;
	/** Seams for tests. */
	now?: () => number;
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Shares one listing token (`LISTER_TOKEN`) between the processes of a fleet without any of them
 * talking to another, the way the snowflake rule shares the members.
 *
 * Discord counts List Guild Members per token: every pod listing with the boss's token draws on
 * one allowance, and each pod's discord.js knows only its own requests, so pods asking at once
 * earn 429s, which count towards the invalid-request limit of the address they share. Here time
 * is cut into slots, each one page of the token's allowance long ({@link SLOT_HEADROOM} spare),
 * and a cycle of `workerCount` slots repeats from the Unix epoch. Slot `w` belongs to worker `w`:
 * a process asks for a page only at the start of a slot of a worker it holds, so the fleet's
 * pages, wherever they run, are spaced at most one a slot, and the token is never asked past its
 * limit. Every host reads the same clock (NTP keeps them within milliseconds of each other; a
 * slot is a second long on Discord).
 *
 * The page's length is learned from Discord's headers on the listing's own responses
 * (see {@link ListingSlots.learn}), so it follows the limit Discord sets rather than one written
 * here; until then it is Discord's 10 pages per 10 s.
 */
export class ListingSlots {
	readonly #held: readonly number[];
	readonly #count: number;
	readonly #now: () => number;
	readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	#limit: number | undefined;
	/** The window, as the last response that opened one said. */
	#windowMs: number | undefined;
	/** When the last slot this process took began: each slot is taken once. */
	#lastSlot = Number.NEGATIVE_INFINITY;

	constructor(options: ListingSlotsOptions) {
		if (options.heldWorkers.length === 0) throw new RangeError('ListingSlots needs at least one held worker');
		this.#held = [...new Set(options.heldWorkers)].sort((a, b) => a - b);
		this.#count = options.workerCount;
		this.#now = options.now ?? Date.now;
		this.#sleep = options.sleep ?? defaultSleep;
	}

	/**
	 * One page's share of the token's allowance: the window a response that opened it said, over
	 * the limit; until one has, Discord's 10 per 10 s.
	 */
	get pageMs(): number {
		if (this.#limit === undefined || this.#windowMs === undefined) return DEFAULT_PAGE_MS;
		return this.#windowMs / this.#limit;
	}

	/** A slot: a page's share, widened by the headroom. */
	get slotMs(): number {
		return this.pageMs / SLOT_HEADROOM;
	}

	/**
	 * Learns the token's limit and window from the headers of a listing response. Only a response
	 * that opened its window (`X-RateLimit-Remaining` one below the limit) says the window whole:
	 * its `Reset-After`. Any other says only what is left of a window another pod may have opened.
	 * Every pod learns the same window so, and so cuts time into the same slots: a pod whose slots
	 * were its own length would ask in the middle of the others'.
	 */
	learn(headers: { get(name: string): string | null }): void {
		const limit = Number(headers.get('x-ratelimit-limit'));
		if (!(Number.isFinite(limit) && limit > 0)) return;
		this.#limit = limit;
		const remaining = headers.get('x-ratelimit-remaining');
		const resetAfter = Number(headers.get('x-ratelimit-reset-after'));
		if (remaining !== null && Number(remaining) === limit - 1 && resetAfter > 0) this.#windowMs = resetAfter * 1000;
	}

	/** Learns from every listing response `rest` gets (List Guild Members; its other routes are left alone). */
	watch(rest: REST): void {
		rest.on(RESTEvents.Response, (request, response) => {
			if (request.method.toUpperCase() === 'GET' && request.route.endsWith('/members')) this.learn(response.headers);
		});
	}

	/**
	 * When the next slot of a held worker begins, at or after `at` and after the last one taken.
	 * Slots are counted from the epoch in whole numbers (slot `n` is worker `n % workerCount`'s),
	 * so no rounding lets two pages into one slot.
	 */
	nextSlot(at: number): number {
		const slot = this.slotMs;
		const afterLast = Number.isFinite(this.#lastSlot) ? Math.round(this.#lastSlot / slot) + 1 : 0;
		const first = Math.max(Math.ceil(at / slot - 1e-9), afterLast);
		for (let n = first; n < first + this.#count; n++) {
			if (this.#held.includes(n % this.#count)) return n * slot;
		}
		throw new RangeError(`no worker of ${this.#held.join(', ')} is below the fleet's ${this.#count}`);
	}

	/** Waits for the next slot of a held worker, and takes it. Rejects when `signal` aborts. */
	async wait(signal?: AbortSignal): Promise<void> {
		const now = this.#now();
		const start = this.nextSlot(now);
		this.#lastSlot = start;
		if (start > now) await this.#sleep(start - now, signal);
	}
}
