import type { Client, Guild } from 'discord.js';
import type { Logger } from 'pino';
import type { ActionDeps } from '../actions/index.js';
import type { Config } from '../config/index.js';
import type { GuildContext, JobManager } from '../jobs/index.js';
import type { Fleet } from '../workers/Fleet.js';
import type { FleetTallies } from './fleet/FleetTallies.js';
import type { JobNotes } from './JobNotes.js';
import type { LiveStatus } from './status/LiveStatus.js';
import type { PreviewBoard } from './preview/PreviewBoard.js';

/** What the command handlers use of the boss itself. */
export interface BossHandle {
	readonly client: Client;
	/** The guild, from the boss's cache (its member count is kept current by member events). */
	readonly guild: Guild;
	/** The live status message of the running job, if one is posted. */
	liveStatus: LiveStatus | undefined;
	/** The guild as the planner sees it now. */
	guildContext(): GuildContext;
	/** The roles of each of our bots in the guild: the boss and every worker's bot it knows. */
	ourBotRoles(): string[][];
	/** Workers other processes hold whose bot the boss does not know (see `Boss`). */
	readonly unknownWorkers: readonly number[];
}

/** What a command handler may use. */
export interface BossContext {
	readonly config: Config;
	/** What the action modules build an action from. */
	readonly actionDeps: ActionDeps;
	readonly fleet: Fleet;
	readonly jobs: JobManager;
	readonly logger: Logger;
	readonly boss: BossHandle;
	/** The guild's open preview of a changing job, waiting for its member's Start. */
	readonly previews: PreviewBoard;
	/** The last count of each fleet job /status followed: the next one's pace (see `FleetTallies`). */
	readonly fleetTallies: FleetTallies;
	/** Where the boss talks about each job (its channel, its status message, why it was not resumed), kept beside the journals. */
	readonly notes: JobNotes;
}
