import { type ScenarioRunInfo, scenarioResultsHead } from '../scenarioResultsHead.js';
import { formatTable } from '../formatTable.js';
import { round, type SharedCapRun } from './runSharedCap.js';
import type { SharedCapScenario } from './SharedCapScenario.js';

/** The table `--scenario shared-cap` prints: each level of the cap, paced and as before, side by side. */
export function formatSharedCapReport(scenario: SharedCapScenario, runs: readonly SharedCapRun[]): string {
	const pace = scenario.workers * scenario.perWorkerLimit;
	const rows = runs.map((run) => {
		const figures = run.figures;
		const cap = `${run.limit} per ${scenario.windowMs / 1000} s (${run.level})`;
		if (!figures) return [cap, run.mode, run.status, '', '', '', '', ''];
		return [
			cap,
			run.mode,
			String(run.renamedMembers),
			figures.seconds.toFixed(0),
			String(run.renamesPerWindow),
			`${(Math.min(figures.shareOfCap, 9.99) * 100).toFixed(1)}%`,
			String(figures.sharedRefusals),
			figures.refusedPerChange.toFixed(3),
		];
	});
	const table = formatTable(['guild cap', 'pacing', 'renamed', 'Discord s', 'per window', 'of the cap', 'shared 429s', 'per rename'], rows);
	return `${scenario.name}: ${scenario.members.toLocaleString('en')} members, ${scenario.workers} workers (${pace} renames per ${scenario.windowMs / 1000} s at their own pace), time scale ${scenario.timeScale}\n\n${table}\n`;
}

/** What the run tells its results file of itself. */
export type SharedCapRunInfo = ScenarioRunInfo;

/** `bench/results-shared-cap.json`: committed, so every key is written in a fixed order. */
export function buildSharedCapResultsFile(run: SharedCapRunInfo, scenario: SharedCapScenario, runs: readonly SharedCapRun[]): string {
	const file = {
		...scenarioResultsHead('massnick npm run bench -- --scenario shared-cap (issue #27)', run),
		scenario: {
			name: scenario.name,
			members: scenario.members,
			workers: scenario.workers,
			workersPacePerWindow: scenario.workers * scenario.perWorkerLimit,
			windowMs: scenario.windowMs,
			levels: scenario.levels.map((level) => ({ ...level })),
			modes: scenario.modes.map((mode) => ({ ...mode })),
			timeScale: scenario.timeScale,
			restOffsetMs: run.restOffsetMs,
		},
		method: {
			guilds: `each run on a fresh sandbox in its own process: ${scenario.members} members from seed 1, its guild-wide write cap (PATCH member from every bot, 429 scope shared past it) set before massnick starts`,
			modes: 'paced: workers.paceSharedLimit on, as shipped; today: off, each worker at its own pace as before the pacing',
			job: '/massnick name:Capped {username} as the owner, Start pressed on its preview; measured until no rename was taken for 3 windows',
			shareOfCap:
				"renames taken ÷ (the cap × the windows from the first rename asked to the last taken, plus that last one's slot), from the sandbox's request log, on Discord's clock (× the time scale); above 1 when the cap is above the workers' pace and never binds",
			sharedRefusals: 'PATCH member answered 429 with X-RateLimit-Scope: shared, from the sandbox’s request log',
		},
		runs: runs.map((entry) => ({
			level: entry.level,
			limit: entry.limit,
			mode: entry.mode,
			paceSharedLimit: entry.paceSharedLimit,
			status: entry.status,
			reason: entry.reason,
			renamedMembers: entry.renamedMembers,
			renames: entry.figures?.changes,
			discordSeconds: entry.figures && round(entry.figures.seconds, 1),
			renamesPerWindow: entry.renamesPerWindow,
			shareOfCap: entry.figures && round(entry.figures.shareOfCap),
			sharedRefusals: entry.figures?.sharedRefusals,
			refusedPerRename: entry.figures && round(entry.figures.refusedPerChange),
		})),
	};
	return `${JSON.stringify(file, null, 2)}\n`;
}
