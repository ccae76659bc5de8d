import type { REST } from 'discord.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { type RetryPolicy, retryTransient } from '../discord/retryTransient.js';
import type { JobError } from '../errors.js';
import { withSignal } from '../util/withSignal.js';

/** A bot that may page through one of the guild's lists (its members, its bans). */
export interface ListingClient {
	rest: REST;
	/** How errors name it: "the boss", "worker 3". */
	label: string;
	/**
	 * Waits until this bot may ask for its next page: a token other processes list with too takes
	 * its turns (see `ListingSlots`). Rejects when `signal` aborts.
	 */
	pace?: ((signal?: AbortSignal) => Promise<void>) | undefined;
}

export interface ListMembersOptions {
	guildId: string;
	/**
	 * The REST clients to page with, in turn. Each token has its own allowance on the route, so
	 * paging with k tokens lists k times faster than with one; the pages still come in id order
	 * because each asks for the ids after the previous page's last.
	 */
	rests: readonly ListingClient[];
	signal?: AbortSignal | undefined;
	/** Resume after this id (exclusive); `0` for the start of the guild. */
	after?: string;
	retry?: RetryPolicy;
}

/** One of the guild's lists, paged by user id with `limit` and `after`. */
export interface PagedList<T> {
	readonly route: `/${string}`;
	/** Discord's most items a page. */
	readonly pageSize: number;
	/** The user id an item is about, which the next page starts after. */
	idOf(item: T): string;
	toRecord(item: T): MemberRecord;
	/** The error a failed page ends the listing with, naming the bot that asked. */
	error(error: unknown, label: string, kind: string): JobError;
}

/** What a job lists the guild with: members by default, bans for a ban's undo. */
export type Listing = (options: ListMembersOptions) => AsyncGenerator<MemberRecord[], void, undefined>;

/**
 * Streams one of the guild's lists in id order, a page at a time, as member records. It pulls the
 * next page only when the consumer asks for it (an async generator), which is where the listing's
 * back-pressure comes from. A page that fails for a passing reason is asked again with backoff;
 * a token revoked mid-listing leaves the rotation and the others carry on at once.
 */
export async function* listPages<T>(options: ListMembersOptions, list: PagedList<T>): AsyncGenerator<MemberRecord[], void, undefined> {
	const { rests, signal } = options;
	if (rests.length === 0) throw new RangeError('a listing needs at least one REST client');
	const retry = options.retry ?? { attempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };
	let after = options.after ?? '0';
	let turn = 0;
	const rotation = [...rests];
	for (;;) {
		let current: ListingClient | undefined;
		const result = await retryTransient(
			async () => {
				signal?.throwIfAborted();
				const client = rotation[turn++ % rotation.length]!;
				current = client;
				await client.pace?.(signal);
				return withSignal(signal, (own) =>
					client.rest.get(list.route, { query: new URLSearchParams({ limit: String(list.pageSize), after }), signal: own }),
				) as Promise<T[]>;
			},
			{
				retry,
				signal,
				retryAtOnce: (failure) => {
					if (failure.kind !== 'revoked' || rotation.length <= 1) return false;
					rotation.splice(rotation.indexOf(current!), 1);
					return true;
				},
			},
		);
		if (!result.ok) {
			if (result.failure.kind === 'aborted') signal?.throwIfAborted();
			throw list.error(result.error, current!.label, result.failure.kind);
		}
		const page = result.value;
		if (page.length > 0) {
			yield page.map((item) => list.toRecord(item));
			after = list.idOf(page[page.length - 1]!);
		}
		if (page.length < list.pageSize) return;
	}
}
