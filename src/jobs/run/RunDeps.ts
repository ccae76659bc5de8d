import type { Admission } from '../admission/index.js';
import type { Config } from '../../config/index.js';
import type { LiveGuildContext } from '../LiveGuildContext.js';
import type { RequesterRank } from '../RequesterRank.js';
import type { JobSpec } from './buildJob.js';
import type { GuildJournals } from './GuildJournals.js';
import type { Job } from '../Job.js';
import type { RunRecordStore } from './RunRecordStore.js';

/** What building a run uses of the manager: the journals, the run records, and how to make a job. */
export interface RunDeps {
	readonly config: Config;
	readonly journals: GuildJournals;
	readonly records: RunRecordStore;
	readonly admission: Admission;
	/** A job of this process from what differs between jobs (see `buildJob`). */
	buildJob(spec: JobSpec): Job;
	/** The guild for a job of `rank`, read again on Discord's role and member events while it runs. */
	liveContext(rank: RequesterRank): LiveGuildContext;
	newJobId(kind: string): string;
}
