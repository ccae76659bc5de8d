import type { Client } from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../config/Config.js';
import type { GuildContext } from '../jobs/GuildContext.js';
import type { JobManager } from '../jobs/JobManager.js';
import type { Fleet } from '../workers/Fleet.js';
import type { LiveStatus } from './LiveStatus.js';

/** What the command handlers use of the boss itself. */
export interface BossHandle {
	readonly client: Client;
	/** The live status message of the running job, if one is posted. */
	liveStatus: LiveStatus | undefined;
	/** The guild as the planner sees it now. */
	guildContext(): GuildContext;
}

/** What a command handler may use. */
export interface BossContext {
	readonly config: Config;
	readonly fleet: Fleet;
	readonly jobs: JobManager;
	readonly logger: Logger;
	readonly boss: BossHandle;
}
