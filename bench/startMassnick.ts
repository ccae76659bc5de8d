import { describeInvocation, type Invocation, invokeJob } from './invokeJob.js';
import type { MassnickJob } from './massnickJobs.js';
import { type StartMassnickProcessOptions, startMassnickProcess } from './startMassnickProcess.js';
import { CHANGES, type Subject } from './Subject.js';

export interface StartMassnickOptions extends StartMassnickProcessOptions {
	/** The command to run once it is ready: `/massnick`, `/massrole add`. */
	job: MassnickJob;
}

/**
 * massnick as a subject of the renaming scenarios: the process `npm start` runs
 * (startMassnickProcess.ts), and {@link Subject.go} runs the job's command as the owner and
 * presses Start on its preview. Whatever the job, the process is the same: only the command differs.
 */
export async function startMassnick(options: StartMassnickOptions): Promise<Subject> {
	const { sandbox, workers, job } = options;
	const { child, listedBy } = await startMassnickProcess(options);
	const invocation: Invocation = {};
	return {
		kind: job.kind,
		pid: child.pid,
		tokens: workers,
		workerIds: sandbox.workerIds.slice(0, workers),
		change: CHANGES[job.kind],
		listedBy,
		get running() {
			return child.running;
		},
		go: () => invokeJob(sandbox, job, options.readyTimeoutMs, invocation),
		diagnose: () => describeInvocation(sandbox, job.command, invocation),
		failure: (message) => child.failure(message),
		// massnick's own shutdown allows itself 10 s; the benchmark needs the process gone, not a
		// clean journal, and its budget cannot spare that per scenario.
		stop: () => child.stop(3000),
	};
}
