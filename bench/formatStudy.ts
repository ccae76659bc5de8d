import { SERVER_LIMITS } from '../src/doctor/serverLimits.js';
import { formatTable } from './formatTable.js';
import type { ScenarioResult } from './runScenario.js';

const COLUMNS = [
	'scenario',
	'run',
	'tokens',
	'one server',
	'offset ms',
	'burst to burst',
	'period ms p50/p99/max',
	'late ms',
	'short',
	'429s',
	'CPU s/1k bot',
	'CPU s/1k sandbox',
	'loop delay ms mean/p99/max',
	'machine busy',
] as const;

/** Whether one server holds this many worker tokens and the boss: Discord's 50 integrations. */
export function fitsOneServer(workers: number): boolean {
	return workers + 1 <= SERVER_LIMITS.integrations;
}

/**
 * The opt-in studies' own table (a scenario's `runs`): how each run's tokens kept to 10 changes
 * per window, measured window to window, and what the process and the machine went through.
 * Empty when no study ran.
 */
export function formatStudy(results: readonly ScenarioResult[]): string[] {
	const rows: string[][] = [];
	for (const result of results) {
		if (!result.scenario.runs) continue;
		for (const subject of result.subjects) {
			const { bursts, eventLoopDelay: delay } = subject;
			const dash = (value: number | null | undefined, text: () => string): string => (value == null ? '—' : text());
			rows.push([
				result.scenario.name,
				subject.label,
				String(subject.tokens),
				fitsOneServer(subject.tokens) ? 'yes' : 'no',
				String(subject.restOffsetMs),
				dash(bursts?.share, () => `${(bursts!.share * 100).toFixed(2)}%`),
				dash(bursts?.periods, () => `${bursts!.periodMedianMs}/${bursts!.periodP99Ms}/${bursts!.periodMaxMs}`),
				dash(bursts?.lateMedianMs, () => String(bursts!.lateMedianMs)),
				dash(bursts?.periods, () => `${bursts!.shortPeriods}/${bursts!.periods}`),
				dash(subject.rateLimited429, () => String(subject.rateLimited429)),
				dash(subject.cpuSecondsPer1000Changes, () => subject.cpuSecondsPer1000Changes!.toFixed(2)),
				dash(subject.sandboxCpuSecondsPer1000Changes, () => subject.sandboxCpuSecondsPer1000Changes!.toFixed(2)),
				dash(delay?.seconds, () => `${delay!.meanMs}/${delay!.p99Ms}/${delay!.maxMs}`),
				dash(subject.machineBusyShare, () => `${Math.round(subject.machineBusyShare! * 100)}%`),
			]);
		}
	}
	if (rows.length === 0) return [];
	return [
		"Window to window (each token, from one rate-limit window's first change to the next one's, in the measured window):",
		formatTable(COLUMNS, rows),
		'',
		`One server: whether one Discord server holds the run's bots, its workers and the boss within ${SERVER_LIMITS.integrations} integrations (with no other bot); a row marked no measures the process alone.`,
		'Burst to burst: the changes in those periods ÷ (their time ÷ one window × 10), free of where the bursts fall in the measured window; late: the median period less one window (the wait past each reset); short: periods with fewer than 10 changes.',
		"CPU per 1,000 changes of the bot's process and of the sandbox's; loop delay: the bot's event loop past a 10 ms timer (perf_hooks, through a preload), the mean, the median second's p99 and the longest; machine busy: both cores, whoever used them.",
	];
}
