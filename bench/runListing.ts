import { join } from 'node:path';
import { type ListingResult, measuredListing, unmeasuredListing } from './ListingResult.js';
import { renameJob } from './massnickJobs.js';
import { MEMBERS_PER_PAGE, measureListing, PAGES_PER_WINDOW } from './measureListing.js';
import type { SandboxProcess } from './SandboxProcess.js';
import type { Scenario } from './scenarios.js';
import { setMembersIntent } from './setMembersIntent.js';
import { startMassnick } from './startMassnick.js';
import type { Subject } from './Subject.js';
import { rateLimitWindowMs } from './SubjectResult.js';

export interface RunListingOptions {
	sandbox: SandboxProcess;
	restOffsetMs: number;
	logDir: string;
	progress: (line: string) => void;
}

/**
 * Times the boss listing the whole guild alone: massnick started with every worker's members
 * intent off, `/massnick dry_run:true`, stopped once the last page is in (see measureListing.ts).
 * Never throws: a failure is reported in the result.
 */
export async function runListing(scenario: Scenario, options: RunListingOptions): Promise<ListingResult> {
	const { sandbox, progress } = options;
	let subject: Subject | undefined;
	try {
		await setMembersIntent(sandbox.control, [sandbox.bossId]);
		progress(`${scenario.name}: listing alone with the boss (a dry run)`);
		subject = await startMassnick({
			sandbox,
			workers: scenario.workers,
			offsetMs: options.restOffsetMs,
			job: renameJob('mn {id}', { dryRun: true }),
			workDir: join(options.logDir, 'listing'),
			logDir: options.logDir,
			logName: 'massnick-listing',
			readyTimeoutMs: 60_000,
		});
		// The rate limit allows 10 pages a window; four times that, and a minute for a busy machine.
		const pages = Math.floor(scenario.members / MEMBERS_PER_PAGE) + 1;
		const timeoutMs = 60_000 + 4 * (pages / PAGES_PER_WINDOW) * rateLimitWindowMs(scenario.timeScale);
		const measurement = await measureListing(subject, sandbox.control, { bossId: sandbox.bossId, timeoutMs });
		const result = measuredListing(scenario.timeScale, subject.listedBy ?? [], measurement);
		progress(
			`${scenario.name}: the boss listed ${result.members?.toLocaleString('en')} members in ${result.pages?.toLocaleString('en')} pages, ${((result.firstToLastPageMs ?? 0) / 1000).toFixed(1)} s first to last (${((result.shareOfRateLimit ?? 0) * 100).toFixed(1)}% of the rate limit's pace)`,
		);
		return result;
	} catch (error) {
		const message = (error as Error).message;
		progress(`${scenario.name}: the listing failed: ${message}`);
		return unmeasuredListing(scenario.timeScale, 'failed', message);
	} finally {
		await subject?.stop();
	}
}
