import type { BossContext } from '../BossContext.js';
import type { UnknownWorkers } from '../status/renderJob.js';

/** The workers the boss could not place in a count (see {@link unknownWorkersNote}). */
export function unknownWorkersOf(context: BossContext): UnknownWorkers {
	return { workers: context.boss.unknownWorkers, reachKnown: Number.isFinite(context.boss.guildContext().workerHighestPosition) };
}
