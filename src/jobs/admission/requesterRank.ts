import { forRequester, type GuildContext } from '../GuildContext.js';
import type { Precondition } from './Precondition.js';

/**
 * What the job hands out is within who asked's reach: a role at or above their highest is
 * refused (the action's `checkRequester`). Members at or above them are left alone one by one
 * by the planner, with the same rank.
 */
export function requesterRank(guildContext: () => GuildContext): Precondition {
	return {
		name: 'requester-rank',
		needsAction: true,
		check({ action, undo, rank }) {
			action.checkRequester?.(forRequester(guildContext(), rank), undo);
		},
	};
}
