import type { ScenarioResult } from './runScenario.js';
import type { SubjectKind } from './Subject.js';
import type { SubjectResult } from './SubjectResult.js';

/**
 * massnick against a baseline measured in the same scenario, minutes apart on the same sandbox:
 * on a shared, noisy machine these ratios mean more than either absolute number.
 */
export interface Ratio {
	baseline: Exclude<SubjectKind, 'massnick'>;
	/** massnick's renames per second ÷ the baseline's. */
	rate: number | null;
	/** massnick's peak RSS ÷ the baseline's. */
	peakRss: number | null;
	/** massnick's CPU seconds per 1000 renames ÷ the baseline's. */
	cpuPerRename: number | null;
}

/** One of issue #5's (and #8's) targets, checked against massnick's numbers in one scenario. */
export interface Check {
	target: string;
	limit: number;
	measured: number | null;
	pass: boolean;
}

function measured(result: ScenarioResult, kind: SubjectKind): SubjectResult | undefined {
	return result.subjects.find((subject) => subject.subject === kind && subject.status === 'measured');
}

export function ratiosOf(result: ScenarioResult): Ratio[] {
	const massnick = measured(result, 'massnick');
	if (!massnick) return [];
	const ratio = (ours: number | null, theirs: number | null): number | null =>
		ours === null || theirs === null || theirs === 0 ? null : Math.round((ours / theirs) * 100) / 100;
	return (['single-token', 'design-2021'] as const).flatMap((kind) => {
		const baseline = measured(result, kind);
		if (!baseline) return [];
		return [
			{
				baseline: kind,
				rate: ratio(massnick.renamesPerSecond, baseline.renamesPerSecond),
				peakRss: ratio(massnick.peakRssMB, baseline.peakRssMB),
				cpuPerRename: ratio(massnick.cpuSecondsPer1000Renames, baseline.cpuSecondsPer1000Renames),
			},
		];
	});
}

export function checksOf(result: ScenarioResult): Check[] {
	if (!result.scenario.subjects.includes('massnick')) return [];
	const massnick = measured(result, 'massnick');
	const { targets } = result.scenario;
	const atMost = (target: string, limit: number, value: number | null | undefined): Check => ({ target, limit, measured: value ?? null, pass: value != null && value <= limit });
	const checks: Check[] = [
		{
			target: 'share of ceiling ≥',
			limit: targets.minShareOfCeiling,
			measured: massnick?.shareOfCeiling ?? null,
			pass: massnick?.shareOfCeiling != null && massnick.shareOfCeiling >= targets.minShareOfCeiling,
		},
		atMost('429s ≤', targets.max429s, massnick?.rateLimited429),
		atMost('403s ≤', targets.max403s, massnick?.forbidden403),
		atMost('longest worker gap, in rate-limit windows, ≤', targets.maxWorkerGapWindows, massnick?.longestWorkerGapWindows),
	];
	if (targets.maxPeakRssMB !== undefined) checks.push(atMost('peak RSS MB ≤', targets.maxPeakRssMB, massnick?.peakRssMB));
	if (targets.maxFirstRenameMs !== undefined) checks.push(atMost('first rename ms ≤', targets.maxFirstRenameMs, massnick?.firstRenameMs));
	return checks;
}
