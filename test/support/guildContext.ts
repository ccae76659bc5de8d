import type { GuildContext } from '../../src/jobs/GuildContext.js';
import type { RequesterRank } from '../../src/jobs/RequesterRank.js';

/** The guild id the fixture's guild has unless told otherwise (also `@everyone`'s role id). */
export const GUILD_ID = '100000000000000000';
/** The fixture guild's owner unless told otherwise. */
export const OWNER_ID = '100000000000000001';

/** What a unit test says of its guild; everything else is the fixture's default. */
export interface GuildContextOverrides {
	readonly guildId?: string;
	readonly ownerId?: string;
	/** Role id and position, in order, beside `@everyone` (the guild's id, position 0), which is always there. */
	readonly roles?: ReadonlyArray<readonly [string, number]>;
	/** The boss and the workers; none by default. */
	readonly botUserIds?: Iterable<string>;
	/** The lowest of the workers' highest role positions; 5 by default, above the roles most tests give members. */
	readonly workerHighestPosition?: number;
	/** The roles that grant Administrator; none by default. */
	readonly administratorRoleIds?: Iterable<string>;
	readonly requester?: RequesterRank;
}

/**
 * The guild as a job's planner sees it, for the unit tests that plan members without a Discord:
 * one place that spells a {@link GuildContext}, so a field added to it is given a default here,
 * not in every test that builds one.
 */
export function guildContext(overrides: GuildContextOverrides = {}): GuildContext {
	const guildId = overrides.guildId ?? GUILD_ID;
	return {
		guildId,
		ownerId: overrides.ownerId ?? OWNER_ID,
		rolePositions: new Map<string, number>([[guildId, 0], ...(overrides.roles ?? [])]),
		botUserIds: new Set(overrides.botUserIds ?? []),
		workerHighestPosition: overrides.workerHighestPosition ?? 5,
		administratorRoleIds: new Set(overrides.administratorRoleIds ?? []),
		...(overrides.requester === undefined ? {} : { requester: overrides.requester }),
	};
}
