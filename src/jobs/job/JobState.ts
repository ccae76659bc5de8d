import type { Worker } from '../../workers/Worker.js';

/** A job's life: planned → running → finished | failed, or running → cancelling → cancelled. */
export type JobState = 'planned' | 'running' | 'cancelling' | 'finished' | 'failed' | 'cancelled';

/** What a job tells while it runs. */
export interface JobEvents {
	state: [state: JobState];
	/** A standing rule's sweep is over: from now on it follows joins and changes (see `Job.following`). */
	following: [];
	/** A worker stopped for good mid-run (its token was revoked). */
	workerStopped: [worker: Worker];
}

/** How a job ended, for the report. */
export interface JobResult {
	state: 'finished' | 'failed' | 'cancelled';
	error?: Error;
	/** Workers (by id) whose token was revoked during the run. */
	stoppedWorkers: number[];
}
