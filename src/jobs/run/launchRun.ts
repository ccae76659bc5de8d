import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { Fleet } from '../../workers/Fleet.js';
import type { Job } from '../Job.js';
import { watchRoles } from '../watchRoles.js';
import type { JobRun } from './JobRun.js';
import { logRun } from './logRun.js';
import type { RunRecordStore } from './RunRecordStore.js';
import type { RunSlot } from './RunSlot.js';

/** What running a job to its end touches besides the run itself. */
export interface LaunchDeps {
	readonly config: Config;
	readonly fleet: Fleet;
	readonly logger: Logger;
	readonly slot: RunSlot;
	readonly records: RunRecordStore;
}

/**
 * Runs `run` to its end, logged and watching the guild's roles: the slot frees first (whatever
 * happens to the journal after, the guild is not stuck), then the journal is marked and closed,
 * then a restore is marked ended in its run record.
 */
export function launchRun(run: JobRun, { config, fleet, logger, slot, records }: LaunchDeps): Job {
	const { job } = run;
	const ended = logRun(run, logger.child({ job: job.id }), { workers: fleet.size, ...fleet.scope.logFields() });
	const unwatch = job.dryRun ? () => {} : watchRoles(job, fleet, config.guildId);
	// A standing rule gives the sweep's place back once it follows joins (see `RunSlot.promote`).
	if (job.keep) job.once('following', () => slot.promote(run));
	slot.endsWith(
		job.run().then(async (result) => {
			unwatch();
			run.context?.stop();
			ended(result);
			slot.free(run);
			await run.closeJournal(result, fleet.count, logger);
			// After the journal: one marked restored is no restart's to find either way.
			if (run.endsRestore(result)) await records.update(job.id, { restoreEndedAt: new Date().toISOString() });
		}),
		run,
	);
	return job;
}
