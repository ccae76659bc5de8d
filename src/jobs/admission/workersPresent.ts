import { ErrorCodes, JobError } from '../../errors.js';
import type { Precondition } from './Precondition.js';

/** What {@link workersPresent} reads of the fleet. */
export interface FleetPresence {
	/** How many workers the whole fleet has (`WORKER_COUNT`). */
	readonly count: number;
	/** How many this process holds. */
	readonly size: number;
	/** How many of those are connected now. */
	readonly connected: () => number;
}

/**
 * Some worker of this process is here to do the job: a process whose workers all run elsewhere
 * (`WORKER_IDS=none`), or whose workers are all disconnected, changes nobody.
 */
export function workersPresent(fleet: FleetPresence): Precondition {
	return {
		name: 'workers-present',
		needsAction: false,
		check() {
			if (fleet.size === 0) {
				throw new JobError(
					ErrorCodes.NoWorkers,
					`This massnick holds none of the ${fleet.count} workers (WORKER_IDS=none): they run in other processes, so a changing job runs there (massnick run, or the fleet's Kubernetes Job).`,
					{ context: { precondition: 'workers-present', workerCount: fleet.count } },
				);
			}
			if (fleet.connected() === 0) {
				throw new JobError(
					ErrorCodes.NoWorkers,
					'No worker is connected (their tokens were rejected, or they are still reconnecting). Check WORKER_TOKENS and the bot log, then try again.',
					{ context: { precondition: 'workers-present' } },
				);
			}
		},
	};
}
