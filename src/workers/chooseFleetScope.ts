import type { FleetScope } from './FleetScope.js';
import { HoldsEveryWorker } from './HoldsEveryWorker.js';
import { HoldsSomeWorkers } from './HoldsSomeWorkers.js';

/**
 * The scope of a process holding workers `ids` of `count`: every worker when it holds as many as
 * there are, else some of them. The one place that compares the two; the `Fleet` calls it
 * once, when it is built.
 */
export function chooseFleetScope(count: number, ids: readonly number[]): FleetScope {
	return ids.length === count ? new HoldsEveryWorker(count) : new HoldsSomeWorkers(count, ids);
}
