import type { Logger } from 'pino';
import type { Admission } from '../admission/index.js';
import type { Config } from '../../config/index.js';
import { LiveGuildContext } from '../LiveGuildContext.js';
import { forRequester } from '../GuildContext.js';
import { jobIds } from './newJobId.js';
import type { JobManagerOptions } from './StartOptions.js';
import type { RequesterRank } from '../RequesterRank.js';
import { buildJob, type JobSpec } from './buildJob.js';
import type { GuildJournals } from './GuildJournals.js';
import type { Job } from '../Job.js';
import type { RunRecordStore } from './RunRecordStore.js';

/** What building a run uses of the manager: the journals, the run records, and how to make a job. */
export interface RunDeps {
	readonly config: Config;
	readonly logger: Logger;
	readonly journals: GuildJournals;
	readonly records: RunRecordStore;
	readonly admission: Admission;
	/** A job of this process from what differs between jobs (see `buildJob`). */
	buildJob(spec: JobSpec): Job;
	/** The guild for a job of `rank`, read again on Discord's role and member events while it runs. */
	liveContext(rank: RequesterRank): LiveGuildContext;
	newJobId(kind: string): string;
}

/** The manager's `RunDeps`, from its options and the parts it keeps. */
export function runDeps(options: JobManagerOptions, parts: Pick<RunDeps, 'journals' | 'records' | 'admission'>): RunDeps {
	const { config, fleet, logger, guildContext } = options;
	const clients = () => options.guildClients?.() ?? fleet.workers.map((worker) => worker.client);
	return {
		config,
		logger,
		...parts,
		buildJob: (spec) => buildJob(spec, { config, fleet, listers: options.listers(), logger }),
		liveContext: (rank) => new LiveGuildContext(() => forRequester(guildContext(), rank), clients()),
		newJobId: jobIds(),
	};
}
