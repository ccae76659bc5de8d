import { describeMachine } from './describeMachine.js';

/** What a scenario's run (`--scenario raid`, `join-burst`, `shared-cap`) tells its results file of itself. */
export interface ScenarioRunInfo {
	args: readonly string[];
	startedAt: Date;
	durationSeconds: number;
	budgetSeconds: number;
	/** The 1-minute load average when the run started: how busy the shared machine was. */
	loadAverageAtStart: number;
	/** discord.js's REST offset every subject ran with, in ms. */
	restOffsetMs: number;
}

/** The first keys of a scenario's results file, in their fixed order: what ran, when, how long, on what. */
export function scenarioResultsHead(benchmark: string, run: ScenarioRunInfo) {
	return {
		benchmark,
		date: run.startedAt.toISOString(),
		args: [...run.args],
		durationSeconds: Math.round(run.durationSeconds),
		budgetSeconds: run.budgetSeconds,
		machine: describeMachine(run.loadAverageAtStart),
	};
}
