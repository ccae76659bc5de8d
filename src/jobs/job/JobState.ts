import type { Worker } from '../../workers/Worker.js';
import type { Outcome } from '../runSlice.js';

/** A job's life: planned → running → finished | failed, or running → cancelling → cancelled. */
export type JobState = 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';

/** What a job tells while it runs. */
export interface JobEvents {
	state: [state: JobState];
	/** A worker stopped for good mid-run (its token was revoked). */
	workerStopped: [worker: Worker];
	/** One member's outcome in worker `worker`'s slice (on a dry run, `changed` is only planned). */
	outcome: [worker: number, outcome: Outcome];
	/** A member worker `worker` could not change, and why (`missing-permissions`, `http-502`, …). */
	failure: [worker: number, reason: string];
}

/** How a job ended, for the report. */
export interface JobResult {
	state: 'finished' | 'failed' | 'cancelled';
	error?: Error;
	/** Workers (by id) whose token was revoked during the run. */
	stoppedWorkers: number[];
}
