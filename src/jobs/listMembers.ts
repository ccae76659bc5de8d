import { type APIGuildMember, type REST, RESTJSONErrorCodes, Routes } from 'discord.js';
import { type RetryPolicy, retryTransient } from '../discord/retryTransient.js';
import { toMemberRecord } from '../discord/toMemberRecord.js';
import { JobError, ErrorCodes } from '../errors.js';
import { withSignal } from '../util/withSignal.js';
import type { MemberRecord } from '../discord/MemberRecord.js';

/** Discord's page size ceiling for List Guild Members. */
export const MEMBER_PAGE_SIZE = 1000;

/** A bot that may list the guild's members: its application has the Server Members intent. */
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
	 * The REST clients to page with, in turn. Each token has its own 10-per-10-s allowance on this
	 * route, so paging with k tokens lists k times faster than with one; the pages still come in
	 * id order because each asks for the ids after the previous page's last.
	 */
	rests: readonly ListingClient[];
	signal?: AbortSignal | undefined;
	/** Resume after this id (exclusive); `0` for the start of the guild. */
	after?: string;
	retry?: RetryPolicy;
}

/**
 * Streams a guild's members in id order, one page of up to 1000 at a time, as compact records.
 *
 * It pulls the next page only when the consumer asks for it (an async generator), which is
 * where the listing's backpressure comes from. REST paging is used rather than the gateway's
 * Request Guild Members: it needs no privileged intent at identify, it is not held to Discord's
 * one all-members request per guild per 30 s, and it can pause.
 * See https://discord.com/developers/docs/resources/guild#list-guild-members
 */
export async function* listMembers(options: ListMembersOptions): AsyncGenerator<MemberRecord[], void, undefined> {
	const { guildId, rests, signal } = options;
	if (rests.length === 0) throw new RangeError('listMembers needs at least one REST client');
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
					client.rest.get(Routes.guildMembers(guildId), {
						query: new URLSearchParams({ limit: String(MEMBER_PAGE_SIZE), after }),
						signal: own,
					}),
				) as Promise<APIGuildMember[]>;
			},
			{
				retry,
				signal,
				// A token revoked mid-listing leaves the rotation; the others carry on at once.
				retryAtOnce: (failure) => {
					if (failure.kind !== 'revoked' || rotation.length <= 1) return false;
					rotation.splice(rotation.indexOf(current!), 1);
					return true;
				},
			},
		);
		if (!result.ok) {
			if (result.failure.kind === 'aborted') signal?.throwIfAborted();
			throw listingError(result.error, current!.label, result.failure.kind);
		}
		const page = result.value;
		if (page.length > 0) {
			yield page.map(toMemberRecord);
			after = page[page.length - 1]!.user.id;
		}
		if (page.length < MEMBER_PAGE_SIZE) return;
	}
}

function listingError(error: unknown, label: string, kind: string): JobError {
	const code = (error as { code?: unknown }).code;
	if (code === RESTJSONErrorCodes.MissingAccess) {
		return new JobError(
			ErrorCodes.MembersIntentDisabled,
			`${label} may not list the guild's members: switch on the Server Members intent for that bot in the Discord developer portal (Bot → Privileged Gateway Intents).`,
		);
	}
	if (kind === 'revoked') return new JobError(ErrorCodes.TokenRejected, `${label}'s token was rejected by Discord while listing members.`);
	return new JobError(ErrorCodes.ListingFailed, `Listing the guild's members failed (${label}): ${(error as Error).message}`);
}
