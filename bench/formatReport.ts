import { describeChange } from './ChangeRoute.js';
import { checksOf, cpuRatiosOf, ratiosOf } from './compareResults.js';
import { formatListing } from './formatListing.js';
import { formatSanitized } from './formatSanitized.js';
import { formatStudy } from './formatStudy.js';
import { formatTable } from './formatTable.js';
import type { ScenarioResult } from './runScenario.js';
import { CHANGES } from './Subject.js';
import { rateLimitWindowMs } from './SubjectResult.js';

const COLUMNS = [
	'scenario',
	'subject',
	'members',
	'tokens',
	'changes/s',
	'of ceiling',
	'429s',
	'403s',
	'first change ms',
	'peak RSS MB',
	'CPU s/1k changes',
	'worker gap ms',
	'slowest worker',
] as const;

/** The table, the ratios and the target checks, as printed on stdout. */
export function formatReport(results: readonly ScenarioResult[]): string {
	const rows: string[][] = [];
	const notes: string[] = [];
	for (const result of results) {
		for (const subject of result.subjects) {
			const value = (number: number | null, text = String(number)): string => (number === null ? '—' : text);
			rows.push([
				result.scenario.name,
				subject.label,
				result.scenario.members.toLocaleString('en'),
				String(subject.tokens),
				value(subject.changesPerSecond, subject.changesPerSecond?.toFixed(1)),
				value(subject.shareOfCeiling, `${((subject.shareOfCeiling ?? 0) * 100).toFixed(1)}%`),
				value(subject.rateLimited429),
				value(subject.forbidden403),
				value(subject.firstChangeMs),
				value(subject.peakRssMB, subject.peakRssMB?.toFixed(0)),
				value(subject.cpuSecondsPer1000Changes, subject.cpuSecondsPer1000Changes?.toFixed(2)),
				value(subject.longestWorkerGapMs, `${subject.longestWorkerGapMs} (${subject.longestWorkerGapWindows?.toFixed(2)} w)`),
				value(subject.slowestWorkerShareOfCeiling, `${((subject.slowestWorkerShareOfCeiling ?? 0) * 100).toFixed(1)}%`),
			]);
			if (subject.status !== 'measured') notes.push(`${result.scenario.name} ${subject.label} ${subject.status}: ${firstLine(subject.reason)}`);
			const refusals = Object.entries(subject.refusals ?? {});
			if (refusals.length > 0) {
				const when = subject.rateLimitedMsAfterFirstChange ?? [];
				const timing = when.length > 0 ? `; 429s at ${when.join(', ')} ms after the first change` : '';
				notes.push(`${result.scenario.name} ${subject.label} refusals: ${refusals.map(([what, count]) => `${count}× ${what}`).join(', ')}${timing}`);
			}
		}
		if (result.scenario.note) notes.push(`${result.scenario.name}: ${result.scenario.note}`);
	}
	const lines: string[] = [];
	const first = results[0];
	if (first && rows.length > 0) {
		const { timeScale } = first.scenario;
		lines.push(
			formatTable(COLUMNS, rows),
			'',
			`A change is ${changesOf(results)}.`,
			`Time scale ${timeScale}: each token may change ${timeScale} members a second (10 per 10 s on either route, windows ÷ ${timeScale}); the ceiling is tokens × ${timeScale}/s.`,
			`Rates are over the ${results.map((result) => `${result.scenario.name}: ${result.scenario.windowSeconds} s`).join(', ')} window after the first change + ${first.scenario.warmupSeconds} s; 429s/403s from start to stop.`,
			`Worker gap: the worst worker's (token's) longest time between two of its changes in the window, and in rate-limit windows (w = 10 s ÷ ${timeScale} = ${rateLimitWindowMs(timeScale)} ms); slowest worker: the fewest changes one token made, as a share of its own ceiling.`,
			`Server Members intent on: ${intentSetup(results)}.`,
		);
	}
	const studyLines = formatStudy(results);
	if (studyLines.length > 0) lines.push(...(lines.length > 0 ? [''] : []), ...studyLines);
	const listingLines = results.flatMap((result) => (result.listing ? formatListing(result.scenario, result.listing) : []));
	if (listingLines.length > 0)
		lines.push(
			...(lines.length > 0 ? [''] : []),
			"The boss listing the guild alone (/massnick dry_run:true; every worker's members intent off):",
			...listingLines,
		);

	const ratioLines = results.flatMap((result) =>
		ratiosOf(result).map(
			(ratio) =>
				`  ${result.scenario.name}: massnick vs ${ratio.baseline}: rate ×${ratio.rate ?? '—'}, peak RSS ×${ratio.peakRss ?? '—'}, CPU per rename ×${ratio.cpuPerRename ?? '—'}`,
		),
	);
	if (ratioLines.length > 0) lines.push('', 'massnick ÷ baseline, measured side by side:', ...ratioLines);

	const cpuLines = results.flatMap((result) =>
		cpuRatiosOf(result).map(
			(cpu) =>
				`  ${result.scenario.name}: ${cpu.label} ${cpu.cpuSecondsPer1000Changes?.toFixed(3) ?? '—'} ÷ ${cpu.comparedWith} ${cpu.baseCpuSecondsPer1000Changes?.toFixed(3) ?? '—'} = ×${cpu.ratio ?? '—'}`,
		),
	);
	if (cpuLines.length > 0)
		lines.push('', "CPU s per 1,000 changes with every member filter ÷ with none (the bot's process, same job, measured side by side):", ...cpuLines);

	const sanitizedLines = results.flatMap((result) =>
		result.subjects.flatMap((subject) => (subject.sanitized ? formatSanitized(result.scenario.name, subject.label, subject.sanitized) : [])),
	);
	if (sanitizedLines.length > 0)
		lines.push('', "Where /sanitize left the guild (members below the bots' role, not the owner, are in reach):", ...sanitizedLines);

	const checkLines = results.flatMap((result) =>
		checksOf(result).map(
			(check) =>
				`  ${check.pass ? 'PASS' : 'MISS'}  ${result.scenario.name} ${check.subject}: ${check.target} ${check.limit} (measured ${check.measured ?? '—'})`,
		),
	);
	if (checkLines.length > 0) {
		lines.push(
			'',
			"Issue #5's targets for massnick, renaming, giving a role and cleaning names (issue #8: with every worker's members intent off; /sanitize's end state and the filters' CPU besides):",
			...checkLines,
		);
	}
	if (notes.length > 0) lines.push('', 'Notes:', ...notes.map((note) => `  ${note}`));
	return `${lines.join('\n')}\n`;
}

/** What was counted as a change, for the subjects that ran: one route per subject, so the rows share one method. */
function changesOf(results: readonly ScenarioResult[]): string {
	const bySubjects = new Map<string, string[]>();
	for (const kind of new Set(results.flatMap((result) => result.subjects.map((subject) => subject.subject)))) {
		const change = describeChange(CHANGES[kind]);
		bySubjects.set(change, [...(bySubjects.get(change) ?? []), kind]);
	}
	return [...bySubjects].map(([change, kinds]) => `${change} for ${kinds.join(', ')}`).join('; ');
}

/** Which apps had the members intent for each subject, from the first scenario that ran it. */
function intentSetup(results: readonly ScenarioResult[]): string {
	const seen = new Map<string, string>();
	for (const result of results) {
		for (const subject of result.subjects) {
			const apps = subject.membersIntent;
			if (!apps || seen.has(subject.subject)) continue;
			const described = apps.length <= 2 ? apps.join(', ') : `${apps[0]} + ${apps.length - 1} workers`;
			const listing = subject.listedBy ? ` (lists: ${subject.listedBy.join(', ')})` : '';
			seen.set(subject.subject, `${subject.subject}: ${described || 'none'}${listing}`);
		}
	}
	return seen.size > 0 ? [...seen.values()].join('; ') : 'not set';
}

function firstLine(text: string | null): string {
	return (text ?? '').split('\n')[0] ?? '';
}
