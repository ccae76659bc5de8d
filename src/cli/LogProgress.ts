import type { Logger } from 'pino';
import type { Job, ProgressSnapshot } from '../jobs/index.js';
import type { ProgressView } from './ProgressView.js';

/**
 * A progress line in the log every `everyMs` while a job runs: for a scheduler's log, where a
 * redrawn bar would be noise. The line at the end, with the final counts, is the caller's.
 */
export class LogProgress implements ProgressView {
	#timer: NodeJS.Timeout | undefined;

	constructor(
		readonly logger: Logger,
		readonly everyMs: number,
	) {}

	start(job: Job): void {
		this.#timer = setInterval(
			() => this.logger.info({ job: job.id, state: job.state, ...progressFields(job.progress.snapshot()) }, 'job progress'),
			this.everyMs,
		);
		this.#timer.unref();
	}

	stop(): void {
		clearInterval(this.#timer);
		this.#timer = undefined;
	}
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
