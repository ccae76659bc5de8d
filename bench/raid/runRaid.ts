import { mkdir } from 'node:fs/promises';
import { scaledRestOffsetMs } from '../SubjectRun.js';
import type { BaselineStyle } from './raidBaselines.js';
import type { RaidContext } from './RaidContext.js';
import { operationSpec, RAID_OPERATIONS, type RaidOperationSpec } from './raidOperations.js';
import { failedRaidRun, type RaidRunResult, type RaidSubject } from './RaidRunResult.js';
import type { RaidScenario } from './RaidScenario.js';
import { massnickLabel, runMassnickRaid } from './runMassnickRaid.js';
import { BASELINE_LABELS, runBaselineRaid } from './runBaselineRaid.js';

/** The subjects in the order the report shows them. */
const SUBJECTS: readonly RaidSubject[] = ['massnick', 'zeppelin', 'yuudachi'];

/** What one fresh guild holds: a ban and its undo, or a timeout. */
const GUILD_STEPS = [operationSpec('ban'), operationSpec('unban')] as const;
const TIMEOUT_STEPS = [operationSpec('timeout')] as const;

/**
 * `npm run bench -- --scenario raid`: each subject cleans up the same raid on guilds of its own,
 * one after another, never two at once: massnick (/massban, then /restore on the same guild,
 * then /masstimeout on a fresh one) and the two one-token baselines, the same steps. Each guild is
 * a fresh sandbox in its own process with the raid staged alike. A run past `deadline` (Unix ms)
 * is skipped, and said so.
 *
 * @returns every step's result, by operation and then subject, in the report's order
 */
export async function runRaid(
	scenario: RaidScenario,
	options: { workDir: string; deadline: number; progress: (line: string) => void },
): Promise<RaidRunResult[]> {
	await mkdir(options.workDir, { recursive: true });
	const context: RaidContext = { scenario, workDir: options.workDir, offsetMs: scaledRestOffsetMs(scenario.timeScale), progress: options.progress };
	const results: RaidRunResult[] = [];
	for (const steps of [GUILD_STEPS, TIMEOUT_STEPS]) {
		for (const subject of SUBJECTS) {
			const failAll = (reason: string): void => {
				for (const spec of steps) results.push(failedRaidRun(baseOf(subject, spec, scenario), reason));
			};
			if (Date.now() > options.deadline) {
				failAll('skipped: over the time budget of the run');
				continue;
			}
			try {
				results.push(...(subject === 'massnick' ? await runMassnickRaid(steps, context) : await runBaselineRaid(subject, steps, context)));
			} catch (error) {
				failAll((error as Error).message);
			}
			for (const result of results.slice(-steps.length)) options.progress(describeRun(result));
		}
	}
	const order = (result: RaidRunResult): number =>
		RAID_OPERATIONS.findIndex((spec) => spec.operation === result.operation) * SUBJECTS.length + SUBJECTS.indexOf(result.subject);
	return results.sort((a, b) => order(a) - order(b));
}

function baseOf(subject: RaidSubject, spec: RaidOperationSpec, scenario: RaidScenario) {
	const label = subject === 'massnick' ? massnickLabel(spec) : BASELINE_LABELS[subject as BaselineStyle];
	return { operation: spec.operation, subject, label, tokens: subject === 'massnick' ? scenario.workers : 1, accounts: scenario.raidAccounts };
}

/** One line of progress for a finished step. */
function describeRun(result: RaidRunResult): string {
	if (result.status === 'failed' && result.toLastMs === null) return `${result.label}, ${result.operation}: failed: ${result.reason?.split('\n')[0]}`;
	const time = result.timeMs === null ? '—' : `${(result.timeMs / 1000).toFixed(1)} s${result.projected ? ' (projected)' : ''}`;
	return `${result.label}, ${result.operation}: ${result.done} of ${result.accounts} in ${time}, ${result.requests} requests, ${result.rateLimited429} 429s, ${result.outsideRaidTouched} outside the raid touched${result.reason ? `; ${result.reason}` : ''}`;
}
