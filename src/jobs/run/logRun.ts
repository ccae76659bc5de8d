import type { Logger } from 'pino';
import { followedKey, FollowingPace } from '../../present/index.js';
import type { JobResult } from '../Job.js';
import type { ProgressSnapshot } from '../Progress.js';
import type { JobRun } from './JobRun.js';

/** How often a running job logs its progress. */
const PROGRESS_LOG_INTERVAL_MS = 60_000;
/** How often a standing rule following joins logs while nobody joins: a sign of life. */
const IDLE_RULE_LOG_INTERVAL_MS = 3_600_000;

/**
 * Logs a run's start, then its progress every minute (a run lasts hours; the log shows it moving
 * without anyone asking /status). A standing rule past its sweep follows joins for months: it
 * logs a minute's line only when its counts changed, and one an hour otherwise. Returns what logs
 * its end and stops the ticker.
 *
 * @param fleetFields what the log says of the workers here (`{ workers }`, and which of how many in a fleet).
 */
export function logRun(run: JobRun, log: Logger, fleetFields: Record<string, unknown>): (result: JobResult) => void {
	const { job } = run;
	log.info(
		{
			action: job.action.type,
			mode: job.mode,
			target: job.target,
			dryRun: job.dryRun,
			by: job.startedBy.tag,
			...fleetFields,
			journal: run.journal?.paths,
		},
		'job started',
	);
	const pace = new FollowingPace(PROGRESS_LOG_INTERVAL_MS, IDLE_RULE_LOG_INTERVAL_MS);
	const ticker = setInterval(() => {
		const snapshot = job.progress.snapshot();
		if (!job.following) return log.info(progressFields(snapshot), 'job progress');
		if (!pace.due(followedKey(snapshot), Date.now())) return;
		pace.shown(followedKey(snapshot), Date.now());
		const { changed, lastChangeAt } = job.progress.followed.snapshot();
		log.info({ ...progressFields(snapshot), joinersChanged: changed, lastChangeAt: lastChangeAt && new Date(lastChangeAt).toISOString() }, 'rule following');
	}, PROGRESS_LOG_INTERVAL_MS);
	ticker.unref();
	return (result) => {
		clearInterval(ticker);
		log.info({ state: result.state, ...progressFields(job.progress.snapshot()), stoppedWorkers: result.stoppedWorkers }, 'job ended');
	};
}

function progressFields(snapshot: ProgressSnapshot): Record<string, unknown> {
	const { total, done, changed, alreadyDone, cant, aboveRequester, left, failed } = snapshot;
	return { total, done, changed, alreadyDone, cant, aboveRequester, left, failed, perSecond: Number(snapshot.rate.toFixed(1)) };
}
