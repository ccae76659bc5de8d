import type { FleetJob, Job } from '../../jobs/index.js';

/** One finished count of a fleet's job from the live guild. */
export interface FleetTally {
	/** The count's id: one count read by two /status is one tally. */
	readonly countId: string;
	/** When the count ended (ms since the epoch). */
	readonly at: number;
	/** Members who had what the job sets. */
	readonly done: number;
	/** Members still to change. */
	readonly toDo: number;
}

/** The fleet jobs remembered: far more than a guild runs between two restarts of its boss. */
const KEPT = 16;

/**
 * The last count of each fleet job the boss followed, so the next /status can say how fast the
 * fleet goes: a boss whose workers run elsewhere sees no change happen, only the guild before and
 * after. In memory only: a restarted boss measures the pace again from its next two counts.
 */
export class FleetTallies {
	readonly #last = new Map<string, FleetTally>();

	/** The last tally of `job`, if it was counted before. */
	previous(job: FleetJob): FleetTally | undefined {
		return this.#last.get(fleetJobKey(job));
	}

	/** Keeps an ended count of `job` as its last tally. */
	record(job: FleetJob, count: Job, at: number): void {
		const key = fleetJobKey(job);
		if (this.#last.get(key)?.countId === count.id) return;
		const { alreadyDone, changed } = count.progress.snapshot();
		this.#last.delete(key);
		this.#last.set(key, { countId: count.id, at, done: alreadyDone, toDo: changed });
		for (const oldest of this.#last.keys()) {
			if (this.#last.size <= KEPT) break;
			this.#last.delete(oldest);
		}
	}
}

/** A fleet job's identity over time: its action, target, filters and split, and when it began. */
function fleetJobKey(job: FleetJob): string {
	const { action, target, onlyRoleId, excludeRoleId, filters, workers } = job.header;
	return JSON.stringify([action, target, onlyRoleId, excludeRoleId, filters ?? null, workers, job.startedAt]);
}
