import type { Logger } from 'pino';
import type { FollowedCounts, Job, ProgressSnapshot } from '../jobs/index.js';
import { followedKey, FollowingPace } from '../present/index.js';
import type { ProgressView } from './ProgressView.js';

/** A following rule's summary comes at most this often, and only when its counts changed... */
const FOLLOWING_EVERY_MS = 60_000;
/** ...or once this long has passed without one: a sign of life in a log that runs for months. */
const FOLLOWING_IDLE_EVERY_MS = 3_600_000;

/**
 * A progress line in the log every `everyMs` while a job runs: for a scheduler's log, where a
 * redrawn bar would be noise. A standing rule (`--keep`) past its sweep follows joins for months,
 * so it logs `rule following` once when it begins to, then a summary only when its counts
 * changed, at most once a minute (or `everyMs`, if longer), and one an hour while nobody joins.
 * The line at the end, with the final counts, is the caller's.
 */
export class LogProgress implements ProgressView {
	#timer: NodeJS.Timeout | undefined;
	#job: Job | undefined;
	#pace: FollowingPace | undefined;

	constructor(
		readonly logger: Logger,
		readonly everyMs: number,
		/** The clock the summaries are paced by. */
		readonly now: () => number = Date.now,
	) {}

	start(job: Job): void {
		this.#job = job;
		this.#pace = new FollowingPace(Math.max(this.everyMs, FOLLOWING_EVERY_MS), FOLLOWING_IDLE_EVERY_MS);
		job.once('following', this.#summary);
		this.#timer = setInterval(() => this.tick(), this.everyMs);
		this.#timer.unref();
	}

	/** What each `everyMs` logs: the progress while the job sweeps, a rule's summary when one is due. */
	tick(): void {
		const job = this.#job;
		if (!job) return;
		if (!job.following) this.logger.info({ job: job.id, state: job.state, ...progressFields(job.progress.snapshot()) }, 'job progress');
		else if (this.#pace!.due(followedKey(job.progress.snapshot()), this.now())) this.#summary();
	}

	stop(): void {
		clearInterval(this.#timer);
		this.#timer = undefined;
		this.#job?.off('following', this.#summary);
		this.#job = undefined;
	}

	readonly #summary = (): void => {
		const job = this.#job;
		if (!job) return;
		const snapshot = job.progress.snapshot();
		this.#pace!.shown(followedKey(snapshot), this.now());
		this.logger.info({ job: job.id, state: job.state, ...followingFields(job.progress.followed.snapshot()), ...progressFields(snapshot) }, 'rule following');
	};
}

/** A snapshot's counters as log fields (seconds, not milliseconds, for people reading JSON). */
export function progressFields(snapshot: ProgressSnapshot): Record<string, unknown> {
	const { total, elsewhere, done, changed, alreadyDone, cant, skipped, left, failed, failedByReason, inFlight, listingDone } = snapshot;
	return {
		total,
		// Members of workers in other processes: listed, and left to them.
		...(elsewhere > 0 ? { elsewhere } : {}),
		done,
		changed,
		alreadyDone,
		cant,
		skipped,
		left,
		failed,
		failedByReason,
		inFlight,
		listingDone,
		perSecond: Number(snapshot.rate.toFixed(1)),
		elapsedSeconds: Math.round(snapshot.elapsedMs / 100) / 10,
		etaSeconds: snapshot.etaMs === null ? null : Math.round(snapshot.etaMs / 1000),
	};
}

/** What a standing rule did for joiners and members who changed, as log fields (times in ISO 8601). */
export function followingFields(followed: FollowedCounts): Record<string, unknown> {
	const { since, lastChangeAt, ...joiners } = followed;
	return {
		followingSince: since === null ? null : new Date(since).toISOString(),
		joiners,
		lastChangeAt: lastChangeAt === null ? null : new Date(lastChangeAt).toISOString(),
	};
}
