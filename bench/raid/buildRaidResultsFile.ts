import { type ScenarioRunInfo, scenarioResultsHead } from '../scenarioResultsHead.js';
import { describeChange } from '../ChangeRoute.js';
import { RAID_FILTERS, RAID_OPERATIONS } from './raidOperations.js';
import type { RaidRunResult } from './RaidRunResult.js';
import type { RaidScenario } from './RaidScenario.js';

/** What the run tells its results file of itself. */
export type RaidRunInfo = ScenarioRunInfo;

/** `bench/results-raid.json`: committed, so every key is written in a fixed order. */
export function buildRaidResultsFile(run: RaidRunInfo, scenario: RaidScenario, results: readonly RaidRunResult[]): string {
	const file = {
		...scenarioResultsHead('massnick npm run bench -- --scenario raid (issue #25)', run),
		scenario: {
			name: scenario.name,
			members: scenario.members,
			raidAccounts: scenario.raidAccounts,
			realJoiners: scenario.realJoiners,
			workers: scenario.workers,
			timeScale: scenario.timeScale,
			baselineSeconds: scenario.baselineSeconds,
			massnickTimeoutSeconds: scenario.massnickTimeoutSeconds,
			restOffsetMs: run.restOffsetMs,
			filters: { ...RAID_FILTERS },
		},
		method: {
			guilds:
				'each subject on fresh sandboxes of its own, one after another: one for the ban and then the unban, one for the timeout; the guild generated from seed 1 less the raid and the real joiners, the raid staged with the sandbox raid seed 0 (the same draw on every guild, ids from the clock)',
			steps: RAID_OPERATIONS.map((spec) => ({
				operation: spec.operation,
				massnick: `/${spec.massnickJob.command}`,
				massnickOptions: spec.massnickJob.options,
				massnickChange: describeChange(spec.massnickChange),
				baselineChange: describeChange(spec.baselineChange),
			})),
			toLast:
				"from setting massnick's job going (Start pressed on its preview; for a ban of more than 100, the typed count submitted in the modal Start opens) or a baseline's first request to the sandbox's answer to the subject's last change (its `at` in the request log)",
			projected:
				'a baseline stopped at its deadline with accounts left: time = (deadline − go) × raid accounts ÷ accounts done; its requests and 429s are those up to the deadline',
			requests: 'every request of the subject’s tokens (massnick: the boss and the workers) in the request log from go to its last change',
			rateLimited429: 'the 429s its tokens got from go to the end of the step',
			done: 'raid accounts the guild shows it done to at the end: banned and no longer members, timed out past the moment read, no longer banned',
			outsideRaid:
				'users other than the raid accounts whose membership, ban or timeout differs between the readings before and after the step, or whom an answered write of the subject named; members and timeouts from the control API, the ban list through GET /guilds/{id}/bans with the boss token',
			onDiscord: 'time × time scale: the time on Discord’s windows; the sandbox’s answer times are multiplied too, so it errs long',
			machineBusy: 'the share of both cores busy during the step (/proc/stat), whoever used them',
		},
		runs: results.map((result) => ({
			operation: result.operation,
			subject: result.subject,
			label: result.label,
			tokens: result.tokens,
			status: result.status,
			reason: result.reason,
			accounts: result.accounts,
			done: result.done,
			stoppedAtDeadline: result.stoppedAtDeadline,
			ranMs: result.ranMs,
			toLastMs: result.toLastMs,
			firstToLastMs: result.firstToLastMs,
			timeMs: result.timeMs,
			projected: result.projected,
			onDiscordSeconds: result.timeMs === null ? null : Math.round((result.timeMs * scenario.timeScale) / 1000),
			requests: result.requests,
			changeRequests: result.changeRequests,
			rateLimited429: result.rateLimited429,
			requestsByRoute: result.requestsByRoute,
			outsideRaidTouched: result.outsideRaidTouched,
			outsideRaidSample: result.outsideRaidSample,
			machineBusy: result.machineBusy === null ? null : Math.round(result.machineBusy * 1000) / 1000,
		})),
	};
	return `${JSON.stringify(file, null, 2)}\n`;
}
