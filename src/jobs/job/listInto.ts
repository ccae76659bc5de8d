import type { MemberRecord } from '../../discord/MemberRecord.js';
import { compareSnowflakes } from '../filters/compareSnowflakes.js';
import { listingBounds } from '../filters/listingBounds.js';
import { listMembers } from '../listMembers.js';
import type { JobMode, JobOptions } from './JobOptions.js';
import type { JoinerReconciler } from './JoinerReconciler.js';
import type { ListedIdsTally } from './ListedIdsTally.js';
import type { SliceDispatch } from './SliceDispatch.js';

/** What a job's listing reads of it: its options, its mode, its cancel, and where members go. */
export interface ListIntoOptions {
	readonly options: Pick<JobOptions, 'guildId' | 'listers' | 'retry' | 'list' | 'filters' | 'yieldListing'>;
	readonly mode: JobMode;
	readonly signal: AbortSignal;
	readonly slices: SliceDispatch;
	readonly joiners: JoinerReconciler<MemberRecord>;
	/** For a job limited to a file of ids: each member met is marked, and the end of the listing told. */
	readonly tally: ListedIdsTally | undefined;
}

/**
 * Lists the guild for a job, hands each member to its slice's queue, and waits for room between
 * pages. A job applying its action lists only the part of the id order its filters can select
 * from (see `listingBounds`); an undo lists every member, as its journal may hold anyone. A
 * listing at low priority waits between pages while it must (`yieldListing`).
 */
export async function listInto({ options, mode, signal, slices, joiners, tally }: ListIntoOptions): Promise<void> {
	const { guildId, listers, retry, list = listMembers } = options;
	const { after, last } = mode === 'apply' ? listingBounds(options.filters) : {};
	for await (const page of list({ guildId, rests: listers, signal, retry, ...(after === undefined ? {} : { after }) })) {
		for (const member of page) {
			tally?.met(member.id);
			if (!joiners.takenAlready(member.id)) slices.listed(member);
		}
		// Joiners this page passed without holding them joined after it was read: the job's to assign.
		for (const joiner of joiners.listed(page.map((member) => member.id))) slices.joined(joiner);
		slices.feed.pageHandedOut();
		// Past the last id the filters can select: no later page holds anyone for the job.
		if (last !== undefined && page.length > 0 && compareSnowflakes(page[page.length - 1]!.id, last) >= 0) break;
		await slices.feed.roomForNextPage();
		signal.throwIfAborted();
		await options.yieldListing?.(signal);
	}
	// Bounded or not, the listing went through every member the job can select.
	tally?.listingComplete();
}
