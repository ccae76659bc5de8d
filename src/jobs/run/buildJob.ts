import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import { expandAuditLogReason, withRequesterReason } from '../../config/index.js';
import type { Fleet } from '../../workers/Fleet.js';
import { Job, type JobOptions } from '../Job.js';
import { listBans } from '../listBans.js';
import type { ListingClient } from '../listMembers.js';

/** What differs between jobs; the rest comes from the configuration and the fleet. */
export type JobSpec = Pick<
	JobOptions,
	'id' | 'action' | 'mode' | 'dryRun' | 'wholeGuild' | 'startedBy' | 'filters' | 'plan' | 'beforeChange' | 'keep' | 'yieldListing'
>;

export interface JobSetting {
	readonly config: Config;
	readonly fleet: Fleet;
	readonly listers: readonly ListingClient[];
	readonly logger: Logger;
}

/** A job of this process: its workers, its listers, the audit-log reason and the pace from the configuration. */
export function buildJob(spec: JobSpec, { config, fleet, listers, logger }: JobSetting): Job {
	return new Job({
		...spec,
		fleet,
		...listingOf(spec, fleet, listers),
		guildId: config.guildId,
		reason: withRequesterReason(
			expandAuditLogReason(config.auditLogReason, {
				jobKind: spec.mode === 'restore' ? 'restore' : spec.action.type,
				jobId: spec.id,
				user: spec.startedBy.tag,
				userId: spec.startedBy.id,
			}),
			spec.mode === 'restore' ? undefined : spec.action.reason,
		),
		maxInFlight: config.workers.maxInFlight,
		retry: config.workers.retry,
		logger: logger.child({ job: spec.id }),
	});
}

/**
 * Who the job plans and which bots page through them: the guild's members, listed by the bots
 * with the members intent; for the undo of an action whose members are banned, the guild's ban
 * list, read by the workers here, who hold Ban Members for that action (its admission checked it).
 * The same workers read which users who are not members such an action reaches are banned already.
 */
function listingOf(spec: JobSpec, fleet: Fleet, listers: readonly ListingClient[]): Pick<JobOptions, 'list' | 'listers' | 'doneListing'> {
	const workers = (fleet.active.length > 0 ? fleet.active : fleet.workers).map((worker) => ({ rest: worker.client.rest, label: worker.label }));
	if (spec.mode === 'restore' && spec.action.restoreListing === 'bans') return { list: listBans, listers: workers };
	// Users who are not members are found done in the ban list, which the workers read (a count in a process without any: the listers).
	if (spec.mode === 'apply' && spec.action.nonMembers?.done === 'bans') return { listers, doneListing: { listers: workers.length > 0 ? workers : listers } };
	return { listers };
}
