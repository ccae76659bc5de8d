import { mkdir } from 'node:fs/promises';
import { scaledRestOffsetMs } from '../SubjectRun.js';
import { failedJoinBurstRun, type JoinBurstRunResult } from './JoinBurstRunResult.js';
import type { JoinBurstScenario } from './JoinBurstScenario.js';
import { runJoinBurstSubject } from './runJoinBurstSubject.js';

/**
 * `npm run bench -- --scenario join-burst`: each subject follows the same standing rule through
 * the same burst on a fresh guild of its own, one after another, never two at once. A subject past
 * `deadline` (Unix ms) is skipped, and said so.
 *
 * @returns each subject's result, in the scenario's order
 */
export async function runJoinBurst(
	scenario: JoinBurstScenario,
	options: { workDir: string; deadline: number; progress: (line: string) => void },
): Promise<JoinBurstRunResult[]> {
	await mkdir(options.workDir, { recursive: true });
	const context = { scenario, workDir: options.workDir, offsetMs: scaledRestOffsetMs(scenario.timeScale), progress: options.progress };
	const results: JoinBurstRunResult[] = [];
	for (const subject of scenario.subjects) {
		const result =
			Date.now() > options.deadline
				? failedJoinBurstRun(
						{ label: subject.label, workers: subject.workers, joiners: scenario.joiners, backlogStepSeconds: scenario.backlogStepSeconds },
						'skipped: over the time budget of the run',
					)
				: await runJoinBurstSubject(subject, context);
		results.push(result);
		options.progress(describeRun(result));
	}
	return results;
}

/** One line of progress for a finished subject. */
function describeRun(result: JoinBurstRunResult): string {
	if (result.p99Seconds === null) return `${result.label}: failed: ${result.reason?.split('\n')[0]}`;
	return `${result.label}: ${result.timedOut} of ${result.joiners} joiners timed out, p50 ${result.p50Seconds} s, p99 ${result.p99Seconds} s, max ${result.maxSeconds} s on Discord's clock, ${result.rateLimited429} 429s, ${result.outsideTouched} outside the burst touched${result.reason ? `; ${result.reason}` : ''}`;
}
