import type { JobError } from '../../errors.js';
import type { GuildContext } from '../GuildContext.js';
import { Admission, type PreconditionObserver } from './Admission.js';
import { oneJobAtATime } from './oneJobAtATime.js';
import { requesterPermission } from './requesterPermission.js';
import { requesterRank } from './requesterRank.js';
import type { PermittedWorker } from './workersPermission.js';
import { workersPermission } from './workersPermission.js';
import { workersPresent } from './workersPresent.js';

export interface EngineAdmissionOptions {
	/** The fleet: how many workers it has, how many are here, which are connected now. */
	readonly fleet: { readonly count: number; readonly size: number; readonly active: readonly PermittedWorker[] };
	/** Why no changing job may start now (the run slot's answer). */
	readonly whyBusy: () => JobError | undefined;
	readonly guildContext: () => GuildContext;
	readonly observe?: PreconditionObserver | undefined;
}

/**
 * The engine's preconditions, in the order they are checked: the cheap facts of this process
 * first (workers here, one job at a time), then who asked (their permission, their rank), then
 * what the workers may do.
 */
export function engineAdmission({ fleet, whyBusy, guildContext, observe }: EngineAdmissionOptions): Admission {
	return new Admission(
		[
			workersPresent({ count: fleet.count, size: fleet.size, connected: () => fleet.active.length }),
			oneJobAtATime(whyBusy),
			requesterPermission,
			requesterRank(guildContext),
			workersPermission(() => fleet.active),
		],
		observe,
	);
}
