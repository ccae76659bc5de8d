import type { Job } from '../jobs/index.js';

/** One way `massnick run` shows a running job: a bar on a terminal, or lines in the log. */
export interface ProgressView {
	/** Starts showing `job` until {@link stop}. */
	start(job: Job): void;
	/** Shows the job's last state once more and stops. */
	stop(): void;
}
