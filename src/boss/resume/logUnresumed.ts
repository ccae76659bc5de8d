import type { Logger } from 'pino';
import type { LeaveIt, ResumeDecision, SkipIt } from '../../jobs/index.js';
import type { Fleet } from '../../workers/Fleet.js';

/** What the lines name of this process: how many workers the fleet has, and which this process holds. */
export type FleetFields = Pick<Fleet, 'count' | 'scope'>;

/**
 * Logs what a start leaves as it is and why (see `decideResume`), and that nothing was cut short
 * when no decision is about a job or restore that was: nobody is told in Discord, since nobody
 * need act, or nobody could (no boss runs here).
 */
export function logUnresumed(decisions: readonly ResumeDecision[], log: Logger, fleet: FleetFields): void {
	if (decisions.every((decision) => decision.kind === 'skip')) log.info('no job or restore was cut short, so there is nothing to resume');
	for (const decision of decisions) {
		if (decision.kind === 'leave') logLeft(decision, log, fleet);
		else if (decision.kind === 'skip') logSkipped(decision, log);
	}
}

function logLeft({ journal, what, why }: LeaveIt, log: Logger, fleet: FleetFields): void {
	if (why.code === 'no-workers-here' || !journal) {
		log.info(
			{ workerCount: fleet.count },
			'this massnick holds none of the workers (WORKER_IDS=none), so it resumes nothing: jobs run, and are rerun, in the processes holding the workers',
		);
		return;
	}
	const { header } = journal;
	const restore = what === 'restore';
	const here = { job: header.jobId, title: header.title, ...(restore ? { restore: true } : {}) };
	const jobLog = log.child({ job: header.jobId });
	const fields = { title: header.title, startedBy: header.startedBy.tag, startedAt: header.startedAt, state: journal.state };
	switch (why.code) {
		case 'resume-off':
			return log.info(
				here,
				`jobs.resumeOnStart is off: the interrupted ${restore ? 'restore' : 'job'} waits until someone runs ${restore ? '/restore' : 'the same command'} again`,
			);
		case 'no-boss':
			return log.info(here, 'no boss runs here, so nothing is resumed: the scheduler that runs this massnick reruns the job');
		case 'fleet-share':
			return log.info({ ...here, ...fleet.scope.logFields() }, why.text);
		case 'started-by-run':
			return jobLog.info(
				fields,
				'the interrupted job was started by massnick run, which a scheduler reruns: massnick start does not resume it (run the same massnick run again to finish it)',
			);
		case 'no-record':
			return jobLog.warn(
				fields,
				'the interrupted job has no record of who asked for it (an older massnick started it), so it is not resumed: run the same command again to finish it',
			);
		case 'restore-started':
			return jobLog.info(
				{ ...fields, restoreStartedAt: why.at },
				'a /restore of the interrupted job started since, so it is not resumed: /restore finishes undoing it',
			);
		case 'newer-job':
			return jobLog.info(
				{ ...fields, newer: why.newer.header.jobId, newerTitle: why.newer.header.title },
				'another job ran after the interrupted one, so it is not resumed: run its command again to finish it, or /cancel to close it',
			);
		case 'unknown-action':
			if (restore) return jobLog.warn({ err: why.cause }, 'the interrupted restore undoes a journal this massnick cannot read, so it is not resumed');
			return jobLog.warn(
				{ ...fields, action: header.action },
				'the interrupted job was journaled by an action this massnick does not know, so it is not resumed',
			);
	}
}

function logSkipped({ journal: { header }, why }: SkipIt, log: Logger): void {
	const fields = { job: header.jobId, title: header.title };
	if (why.code === 'cancelled') log.debug(fields, 'a job cancelled with /cancel is not resumed; /restore still undoes it');
	else log.debug({ ...fields, first: why.first.header.jobId }, 'an older unfinished job is not resumed: only the newest job or restore a restart cut short is');
}
