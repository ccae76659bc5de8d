import { type ScenarioRunInfo, scenarioResultsHead } from '../scenarioResultsHead.js';
import { describeChange } from '../ChangeRoute.js';
import { TIMEOUT_CHANGE } from './collectTimeouts.js';
import { p99Ratio, P99_BAR } from './formatJoinBurstReport.js';
import { RULE_AS_TYPED } from './joinBurstRule.js';
import type { JoinBurstRunResult } from './JoinBurstRunResult.js';
import type { JoinBurstScenario } from './JoinBurstScenario.js';

/** What the run tells its results file of itself. */
export type JoinBurstRunInfo = ScenarioRunInfo;

/** `bench/results-join-burst.json`: committed, so every key is written in a fixed order, each backlog on one line. */
export function buildJoinBurstResultsFile(run: JoinBurstRunInfo, scenario: JoinBurstScenario, results: readonly JoinBurstRunResult[]): string {
	const first = results[0];
	const file = {
		...scenarioResultsHead('massnick npm run bench -- --scenario join-burst (issue #26)', run),
		scenario: {
			name: scenario.name,
			members: scenario.members,
			joiners: scenario.joiners,
			burstSeconds: scenario.burstSeconds,
			accountAgeHours: scenario.accountAgeHours,
			timeScale: scenario.timeScale,
			rule: RULE_AS_TYPED,
			subjects: scenario.subjects.map((subject) => ({ ...subject })),
			backlogStepSeconds: scenario.backlogStepSeconds,
			subjectTimeoutSeconds: scenario.subjectTimeoutSeconds,
			restOffsetMs: run.restOffsetMs,
		},
		method: {
			guilds: `each subject on a fresh sandbox of its own, one after another: ${scenario.members} members generated from seed 1 (accounts made before mid-2025), the bots' role given Moderate Members`,
			rule: 'the owner types the rule and presses Start on its preview; /status, asked as the owner, lists it as following joins before the burst is staged',
			burst: `POST /_sandbox/guilds/{g}/join-burst: ${scenario.joiners} accounts made at most ${scenario.accountAgeHours} h before the burst (ids drawn uniformly over that time, above every member's), joining in id order at moments drawn uniformly over ${scenario.burstSeconds} s ÷ the time scale of the sandbox's clock, each with its GUILD_MEMBER_ADD as it joins; the same draw (seed 0) for every subject`,
			latency: `from each joiner's joined_at (the sandbox's record of when it added them) to the sandbox's answer to their first ${describeChange(TIMEOUT_CHANGE)} in its request log, × the time scale: Discord seconds (the sandbox's answer times are multiplied too, so it errs long); p50 and p99 by the nearest rank`,
			backlog: `joiners not yet timed out, from the first join every ${scenario.backlogStepSeconds} Discord seconds until the last timeout, from the same records`,
			requests: "every request of the subject's tokens (the boss and its workers) from the rule's command to the last timeout",
			rateLimited429: 'the 429s its tokens got from the rule’s command to the end of the run',
			checks:
				'each joiner timed out exactly once (one answered timeout each, and the guild shows them timed out at the end); nobody else timed out (the guild read before and after, and every answered timeout’s target)',
			machineBusy: 'the share of both cores busy from the burst to the end of the run (/proc/stat), whoever used them',
			eventLoopDelay:
				"massnick's event-loop delay from the first join to the last timeout, from bench/eventLoopProbe.ts preloaded into its process: the seconds' histograms past a 10-ms timer, in real ms (mean, the median second's p99, the worst second's p99, the longest)",
			joinersPerWorker: 'how many joiners each worker owns by (id >> 22) % workers: the fullest one drains last, so it bounds the p99',
		},
		bar: {
			wanted: `p99 join-to-timeout with ${first?.label ?? 'the first subject'} at least ${P99_BAR} times lower than with one token`,
			p99Ratios: Object.fromEntries(results.slice(1).map((result) => [result.label, round(p99Ratio(first, result))])),
			met: results.slice(1).every((result) => (p99Ratio(first, result) ?? 0) >= P99_BAR),
		},
		runs: results.map((result) => ({
			label: result.label,
			workers: result.workers,
			status: result.status,
			reason: result.reason,
			joiners: result.joiners,
			timedOut: result.timedOut,
			timedOutAgain: result.timedOutAgain,
			outsideTouched: result.outsideTouched,
			outsideSample: result.outsideSample,
			burstSeconds: result.burstSeconds,
			p50Seconds: result.p50Seconds,
			p99Seconds: result.p99Seconds,
			maxSeconds: result.maxSeconds,
			drainedSeconds: result.drainedSeconds,
			joinersPerWorker: result.joinersPerWorker,
			requests: result.requests,
			requestsByRoute: result.requestsByRoute,
			rateLimited429: result.rateLimited429,
			machineBusy: round(result.machineBusy, 1000),
			eventLoopDelay: result.eventLoopDelay,
			backlogStepSeconds: result.backlogStepSeconds,
			backlog: result.backlog,
		})),
	};
	return `${JSON.stringify(file, null, 2).replace(/"(backlog|joinersPerWorker)": \[[\d,\s]*\]/g, (array) => array.replace(/\s+/g, ' ').replace('[ ', '[').replace(' ]', ']'))}\n`;
}

function round(value: number | null, by = 100): number | null {
	return value === null ? null : Math.round(value * by) / by;
}
