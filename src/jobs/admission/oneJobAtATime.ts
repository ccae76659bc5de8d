import type { JobError } from '../../errors.js';
import type { Precondition } from './Precondition.js';

/**
 * The guild's limit on runs at once: one changing job (a sweep of the guild, or its restore) at a
 * time, since two would fight over the same members and share the same tokens. `whyBusy` is the
 * run slot's answer (see `RunSlot`): the refusal says what runs now. A run beside the sweep (a
 * rule's catch-up) is the slot's to limit.
 */
export function oneJobAtATime(whyBusy: () => JobError | undefined): Precondition {
	return {
		name: 'one-job-at-a-time',
		needsAction: false,
		check(request) {
			if (request?.beside) return;
			const busy = whyBusy();
			if (busy) throw busy;
		},
	};
}
