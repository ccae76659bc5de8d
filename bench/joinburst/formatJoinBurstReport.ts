import { formatTable } from '../formatTable.js';
import { RULE_AS_TYPED } from './joinBurstRule.js';
import type { JoinBurstRunResult } from './JoinBurstRunResult.js';
import type { JoinBurstScenario } from './JoinBurstScenario.js';

const COLUMNS = [
	'subject',
	'tokens',
	'joiners timed out',
	'p50',
	'p99',
	'max',
	'p99 ÷ first',
	'all done after',
	'peak backlog',
	'fullest worker',
	'requests',
	'429s',
	'others touched',
	'loop delay',
] as const;

/** The bar: p99 join-to-timeout with many workers at least this many times lower than with one token. */
export const P99_BAR = 8;

/** Discord seconds after the first join at which the backlog table samples, as far as any run goes. */
const BACKLOG_AT = [0, 15, 30, 45, 60, 120, 300, 600, 1200, 1800, 2400, 3600, 4800, 6000, 7200] as const;

/** How many times lower the first subject's p99 is than `result`'s, or null when either is missing. */
export function p99Ratio(first: JoinBurstRunResult | undefined, result: JoinBurstRunResult): number | null {
	if (!first?.p99Seconds || result.p99Seconds === null || first.status === 'failed' || result.status === 'failed') return null;
	return result.p99Seconds / first.p99Seconds;
}

/** The join-burst table, the backlog over time, the bar and why a run failed, as printed on stdout. */
export function formatJoinBurstReport(scenario: JoinBurstScenario, results: readonly JoinBurstRunResult[]): string {
	const count = (value: number): string => value.toLocaleString('en');
	const first = results[0];
	const rows = results.map((result, index) => {
		const ratio = p99Ratio(first, result);
		return [
			result.label,
			String(result.workers),
			`${count(result.timedOut)} of ${count(result.joiners)}`,
			seconds(result.p50Seconds),
			seconds(result.p99Seconds),
			seconds(result.maxSeconds),
			index === 0 || ratio === null ? '—' : `×${ratio.toFixed(1)}`,
			seconds(result.drainedSeconds),
			result.backlog.length === 0 ? '—' : count(Math.max(...result.backlog)),
			result.joinersPerWorker.length === 0 ? '—' : count(Math.max(...result.joinersPerWorker)),
			count(result.requests),
			count(result.rateLimited429),
			result.p99Seconds === null ? '—' : count(result.outsideTouched),
			result.eventLoopDelay === null ? '—' : `${result.eventLoopDelay.worstP99Ms.toFixed(0)} ms`,
		];
	});
	const lines = [
		`Join burst: ${count(scenario.joiners)} accounts made in the last ${scenario.accountAgeHours} hours join over ${scenario.burstSeconds} s among ${count(scenario.members)} members, the rule ${RULE_AS_TYPED} made before; each subject on a fresh guild of its own, time scale ${scenario.timeScale}.`,
		'',
		formatTable(COLUMNS, rows),
		'',
		`Times are on Discord's clock (the sandbox's × ${scenario.timeScale}; its own answer times are multiplied too, so they err long): from each joiner's joined_at to the sandbox's answer to their timeout. p99 ÷ first: this subject's p99 over the first's. all done after: from the first join to the last timeout. backlog: joiners not yet timed out, sampled every ${scenario.backlogStepSeconds} s (in the results file). fullest worker: the most joiners one worker owns by (id >> 22) % workers; its queue drains last. loop delay: massnick's event loop, the worst second's p99 from the first join to the last timeout (real ms; tens mean it was short of CPU).`,
		'',
		formatBacklog(results),
	];
	for (const [index, result] of results.entries()) {
		if (index === 0) continue;
		const ratio = p99Ratio(first, result);
		if (ratio !== null)
			lines.push(
				`Bar: p99 with ${first!.label} ${ratio >= P99_BAR ? 'is' : 'is NOT'} at least ${P99_BAR} times lower than with ${result.label}: ×${ratio.toFixed(1)} (${seconds(first!.p99Seconds)} against ${seconds(result.p99Seconds)}): ${ratio >= P99_BAR ? 'PASS' : 'MISS'}`,
			);
	}
	for (const result of results) if (result.reason !== null) lines.push(`${result.label}: ${result.status}: ${result.reason.split('\n')[0]}`);
	return `${lines.join('\n')}\n`;
}

/** Joiners not yet timed out at a few moments after the first join, a column per subject. */
function formatBacklog(results: readonly JoinBurstRunResult[]): string {
	const longest = Math.max(0, ...results.map((result) => (result.backlog.length - 1) * result.backlogStepSeconds));
	const moments = BACKLOG_AT.filter((at) => at <= longest);
	if (moments.length === 0) return 'backlog: no run was measured';
	const rows = moments.map((at) => [
		`${at} s`,
		...results.map((result) => {
			if (result.backlog.length === 0) return '—';
			const sample = result.backlog[Math.round(at / result.backlogStepSeconds)];
			return (sample ?? result.backlog.at(-1)!).toLocaleString('en');
		}),
	]);
	// formatTable left-aligns two columns: the moment, and a blank one so every subject's figures align right.
	return formatTable(
		['backlog after the first join', '', ...results.map((result) => result.label)],
		rows.map(([at, ...rest]) => [at!, '', ...rest]),
	);
}

function seconds(value: number | null): string {
	return value === null ? '—' : `${value.toLocaleString('en', { maximumFractionDigits: 1 })} s`;
}
