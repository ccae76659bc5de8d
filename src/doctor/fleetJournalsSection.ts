import type { Config } from '../config/index.js';
import { formatIdRuns } from '../util/formatIdRuns.js';
import { readFleetJobs } from '../jobs/index.js';

/**
 * The report's section on `FLEET_JOURNALS_DIR`, for a boss whose workers run elsewhere: whether
 * the fleet's journals can be read there, and the jobs /status would find, each with its parts.
 * Nothing when the key is unset.
 */
export function fleetJournalsSection(config: Pick<Config, 'fleetJournalsDir' | 'guildId'>): () => Promise<string[]> {
	return async () => {
		const dir = config.fleetJournalsDir;
		if (dir === undefined) return [];
		const warnings: string[] = [];
		const lines = [`The fleet's journals (FLEET_JOURNALS_DIR=${dir}, read-only): what /status follows`];
		try {
			const jobs = await readFleetJobs(dir, config.guildId, { onWarning: (message) => warnings.push(message) });
			if (jobs.length === 0) lines.push(`  no job of guild ${config.guildId} yet: the fleet has not run one, or its volume is mounted elsewhere`);
			for (const job of jobs.slice(0, 5)) {
				const parts = Array.from({ length: job.header.workers }, (_, id) => job.parts.get(id)?.state ?? 'not started');
				const byState = [...new Set(parts)].map((state) => `${formatIdRuns(parts.flatMap((each, id) => (each === state ? [id] : [])))} ${state}`);
				lines.push(`  ${job.header.title}, by ${job.header.startedBy.tag} ${job.startedAt.slice(0, 10)}, ${job.header.workers} workers: ${byState.join('; ')}`);
			}
			if (jobs.length > 5) lines.push(`  … and ${jobs.length - 5} older jobs`);
		} catch (error) {
			lines.push(`  ! ${(error as Error).message}`);
		}
		for (const warning of warnings) lines.push(`  ! ${warning}`);
		return lines;
	};
}
