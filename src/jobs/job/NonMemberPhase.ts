import type { Logger } from 'pino';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { listBans } from '../listBans.js';
import type { NonMemberReach } from '../MassAction.js';
import { ListingFeed } from './ListingFeed.js';
import { type BanPages, nonMemberPages } from './nonMemberPages.js';
import { NON_MEMBER_LIMIT, NonMemberTally } from './NonMemberTally.js';
import { SliceDispatch, type SliceWork } from './SliceDispatch.js';
import type { JobOptions } from './JobOptions.js';

/** What the phase reads of its job's options: where the ban list is read (`doneListing`, or its listers), the pace, the workers. */
export type NonMemberJobOptions = Pick<JobOptions, 'guildId' | 'retry' | 'listers' | 'doneListing' | 'maxInFlight' | 'fleet'>;

/**
 * The second part of a job limited to a file of ids whose action reaches users who are not members
 * (see `MassAction.nonMembers`): once every member is done, the ids no member had are handed to
 * their owner workers by the same rule as members, through queues and slices of their own, so
 * they go in calls of their own (what Discord refuses for them is theirs alone) and never at once
 * with a worker's calls for members. Planned and journaled as members are; which of them are done
 * already is read from the guild's ban list.
 *
 * When Discord answers that it takes no more of them ({@link NonMemberReach.limitReached}), every
 * one not yet sent counts failed (`non-member-limit`) without a request; the job's members are
 * not held back by it.
 */
export class NonMemberPhase {
	readonly tally = new NonMemberTally();

	/**
	 * A call's failure, for either part of the job: `true` when it is Discord's limit on users who
	 * are not members (the phase then sends no more of them), as `SliceWork.limit` asks.
	 */
	static limitOf(reach: NonMemberReach, phase: NonMemberPhase | undefined, logger: Logger): (error: unknown) => boolean {
		return (error) => {
			const stop = reach.limitReached(error);
			if (!stop) return false;
			if (!phase?.tally.stopped) logger.warn({ reason: stop.message }, 'Discord takes no more users who are not members: sending them stops');
			phase?.tally.stop(stop);
			return true;
		};
	}

	/**
	 * Hands `ids` out and works them to the end (the job's cancel and failure stop it, as they stop
	 * the members), with the queues' room and the counters of `members`, the job's own slices. The
	 * job's total is final once every one is handed out or the hand-out has stopped.
	 *
	 * Resolves with what stopped the job, if anything did here: a ban list that could not be read,
	 * or a slice that could not go on (the journal refused a write).
	 */
	async run(ids: readonly string[], options: NonMemberJobOptions, members: SliceDispatch, work: SliceWork): Promise<Error | undefined> {
		const { guildId, retry, doneListing, maxInFlight, fleet } = options;
		const { listers = options.listers, list = listBans } = doneListing ?? {};
		const bans: BanPages = (after) => list({ guildId, rests: listers, signal: work.signal, retry, after });
		const { tally } = this;
		const { layout, progress } = members;
		const feed = new ListingFeed<MemberRecord>({ slices: layout.ids.length, capacity: members.feed.capacity, maxInFlight });
		const slices = new SliceDispatch(
			layout,
			feed,
			progress,
			(id) => fleet.get(id),
			(reporter) => tally.reporter(reporter),
		);
		const refused = { ...work, refuse: () => (tally.stopped ? NON_MEMBER_LIMIT : undefined) };
		const ends = Promise.allSettled(layout.ids.map((_, place) => slices.work(place, refused)));
		let failure: Error | undefined;
		try {
			for await (const page of nonMemberPages(ids, bans)) {
				for (const record of page) if (slices.listed(record)) tally.handed();
				feed.pageHandedOut();
				await feed.roomForNextPage();
				work.signal.throwIfAborted();
			}
		} catch (error) {
			if (!work.signal.aborted) {
				failure = error as Error;
				// The ban list could not be read: what is queued is not sent either.
				work.broke(error);
			}
		} finally {
			progress.listingFinished();
			feed.closeAll();
		}
		for (const end of await ends) if (end.status === 'rejected') failure ??= end.reason as Error;
		return failure;
	}
}
