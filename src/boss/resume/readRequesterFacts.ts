import { MassnickError } from '../../errors.js';
import { forRequester, type MassAction, type RequesterNow } from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { readRequesterNow } from './readRequesterNow.js';

/** What the guild says now of who asked for a job: what `requesterRefusal` decides from. */
export interface RequesterFacts {
	readonly requester: RequesterNow;
	/** Whether they may do what needs any permission, for the job's admission (still a member). */
	readonly may?: ((permission: bigint) => boolean) | undefined;
	/** Each role's position now, by id: where their old highest role stands. */
	readonly rolePositions: ReadonlyMap<string, number>;
}

/**
 * The requester `userId` read from Discord now (see {@link readRequesterNow}), with `action`'s own
 * check of their rank now (a role it gives at or above them): what a restart reads before it goes
 * on with a job, and what a standing rule is re-checked with while it runs, so both decide alike.
 *
 * @param permission what the job's command asks (see `actionCommandPermission`).
 * @param undo the job's restore is asked about.
 */
export async function readRequesterFacts(context: BossContext, action: MassAction, userId: string, permission: bigint, undo: boolean): Promise<RequesterFacts> {
	const { now, may } = await readRequesterNow(context, userId, permission);
	let requester = now;
	if (now.kind === 'member') {
		try {
			action.checkRequester?.(forRequester(context.boss.guildContext(), now.rank), undo);
		} catch (error) {
			if (!(error instanceof MassnickError)) throw error;
			requester = { ...now, outOfReach: error.message };
		}
	}
	const rolePositions = new Map(context.boss.guild.roles.cache.map((role) => [role.id, role.position]));
	return { requester, may, rolePositions };
}
