import { moduleOfType } from '../../actions/index.js';
import { MassnickError } from '../../errors.js';
import { actionToUndo, type CheckFirst, type MassAction, type ResumeFacts } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { actionCommandPermission } from '../commandPermission.js';
import { readRequesterFacts } from './readRequesterFacts.js';

/** What the boss read for a `check` decision: the facts for the decision, and what a resume then runs with. */
export interface ReadFacts {
	readonly facts: ResumeFacts;
	/** The action rebuilt against the guild now, when it could be. */
	readonly action?: MassAction | undefined;
	/** The command's permission: its name says who can continue a job that did not go on. */
	readonly permission?: bigint | undefined;
	/** Whether the requester may do what needs a permission, for the resumed job's admission. */
	readonly may?: ((permission: bigint) => boolean) | undefined;
}

/**
 * Reads what the guild says now of a job (or restore) that may go on: its action rebuilt against
 * the guild as a new command's would be (a role deleted or moved above the workers since), and
 * its requester read from Discord, with the action's own check of their rank now. The member is
 * read only when the action still runs.
 */
export async function readResumeFacts(context: BossContext, { what, journal: { header }, asked }: CheckFirst): Promise<ReadFacts> {
	let action: MassAction;
	let permission: bigint;
	if (what === 'restore') {
		try {
			action = actionToUndo(header, (journaled) => context.jobs.actionOf(journaled));
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			return { facts: { action: 'unknown', cause: error } };
		}
		// Undoing a job asks what running it did (see `jobPermission`).
		permission = action.permission;
	} else {
		const module = moduleOfType(header.action);
		const journaled = context.jobs.actionOf(header);
		if (!module || !journaled) return { facts: { action: 'unknown' } };
		permission = actionCommandPermission({ type: header.action, permission: journaled.permission });
		try {
			action = module.resume?.(header, context.actionDeps) ?? journaled;
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			return { facts: { action: 'refused', message: error.message }, permission };
		}
	}
	const { requester, may, rolePositions } = await readRequesterFacts(context, action, asked.startedBy.id, permission, what === 'restore');
	return { facts: { action: 'ready', requester, rolePositions }, action, permission, may };
}
