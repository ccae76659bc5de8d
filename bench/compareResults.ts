import type { ScenarioResult } from './runScenario.js';
import { runsOf } from './scenarios.js';
import { isMassnick, type MassnickKind, type SubjectKind } from './Subject.js';
import type { SubjectResult } from './SubjectResult.js';

/**
 * massnick against a baseline measured in the same scenario, minutes apart on the same sandbox:
 * on a shared, noisy machine these ratios mean more than either absolute number. Both rename, so
 * massnick here is its nickname subject.
 */
export interface Ratio {
	baseline: Exclude<SubjectKind, MassnickKind>;
	/** massnick's renames per second ÷ the baseline's. */
	rate: number | null;
	/** massnick's peak RSS ÷ the baseline's. */
	peakRss: number | null;
	/** massnick's CPU seconds per 1000 renames ÷ the baseline's. */
	cpuPerRename: number | null;
}

/** One run's CPU per 1,000 changes against an earlier run's in the same scenario ({@link SubjectRun.cpuComparedWith}). */
export interface CpuRatio {
	label: string;
	comparedWith: string;
	cpuSecondsPer1000Changes: number | null;
	baseCpuSecondsPer1000Changes: number | null;
	/** This run's ÷ the other's. */
	ratio: number | null;
}

/** One of issue #5's (and #8's) targets, checked against one massnick run's numbers in one scenario. */
export interface Check {
	/** The run's label: the subject's kind in a default scenario. */
	subject: string;
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
				rate: ratio(massnick.changesPerSecond, baseline.changesPerSecond),
				peakRss: ratio(massnick.peakRssMB, baseline.peakRssMB),
				cpuPerRename: ratio(massnick.cpuSecondsPer1000Changes, baseline.cpuSecondsPer1000Changes),
			},
		];
	});
}

/** Each run that names another's CPU to be compared with: the filters' cost, side by side. */
export function cpuRatiosOf(result: ScenarioResult): CpuRatio[] {
	const byLabel = (label: string): SubjectResult | undefined => result.subjects.find((subject) => subject.label === label && subject.status === 'measured');
	return runsOf(result.scenario).flatMap((run) => {
		if (run.cpuComparedWith === undefined) return [];
		const ours = byLabel(run.label)?.cpuSecondsPer1000Changes ?? null;
		const theirs = byLabel(run.cpuComparedWith)?.cpuSecondsPer1000Changes ?? null;
		const ratio = ours === null || theirs === null || theirs === 0 ? null : Math.round((ours / theirs) * 1000) / 1000;
		return [{ label: run.label, comparedWith: run.cpuComparedWith, cpuSecondsPer1000Changes: ours, baseCpuSecondsPer1000Changes: theirs, ratio }];
	});
}

/**
 * The scenario's targets for each massnick run: the renames and the roles given are the same
 * process on the same engine, held to the same figures; a study holds each of its runs to them.
 * `/sanitize` is also held to where it left the guild (nobody changed but the decorated members
 * in reach, each showing its plain name; every one of them when it ran to its end), and a run
 * with every filter to its CPU beside the same run with none.
 */
export function checksOf(result: ScenarioResult): Check[] {
	const { targets } = result.scenario;
	const cpuRatios = cpuRatiosOf(result);
	return runsOf(result.scenario)
		.filter((run) => isMassnick(run.kind))
		.flatMap(({ label, kind }) => {
			const subject = result.subjects.find((candidate) => candidate.label === label && candidate.status === 'measured');
			const atMost = (target: string, limit: number, value: number | null | undefined): Check => ({
				subject: label,
				target,
				limit,
				measured: value ?? null,
				pass: value != null && value <= limit,
			});
			const atLeast = (target: string, limit: number, value: number | null | undefined): Check => ({
				subject: label,
				target,
				limit,
				measured: value ?? null,
				pass: value != null && value >= limit,
			});
			const checks: Check[] = [];
			if (targets.minShareOfCeiling !== undefined) checks.push(atLeast('share of ceiling ≥', targets.minShareOfCeiling, subject?.shareOfCeiling));
			if (targets.minBurstShare !== undefined) checks.push(atLeast('share of 10 per window, burst to burst, ≥', targets.minBurstShare, subject?.bursts?.share));
			checks.push(
				atMost('429s ≤', targets.max429s, subject?.rateLimited429),
				atMost('403s ≤', targets.max403s, subject?.forbidden403),
				atMost('longest worker gap, in rate-limit windows, ≤', targets.maxWorkerGapWindows, subject?.longestWorkerGapWindows),
			);
			if (targets.maxPeakRssMB !== undefined) checks.push(atMost('peak RSS MB ≤', targets.maxPeakRssMB, subject?.peakRssMB));
			if (targets.maxFirstChangeMs !== undefined) checks.push(atMost('first change ms ≤', targets.maxFirstChangeMs, subject?.firstChangeMs));
			if (kind === 'massnick-sanitize') {
				const sanitized = subject?.sanitized;
				checks.push(
					atMost('members changed that were not decorated members in reach ≤', 0, sanitized?.changedOthers),
					atMost('members changed not showing their plain name ≤', 0, sanitized?.changedNotPlain),
					atMost('members changed twice ≤', 0, sanitized?.changedTwice),
				);
				if (result.scenario.sanitizeUntilDone) checks.push(atLeast('decorated members in reach cleaned, share, ≥', 1, sanitized?.cleanedShare));
			}
			const cpu = cpuRatios.find((ratio) => ratio.label === label);
			if (cpu && targets.maxCpuRatio !== undefined) checks.push(atMost(`CPU s/1k changes ÷ ${cpu.comparedWith}'s ≤`, targets.maxCpuRatio, cpu.ratio));
			return checks;
		});
}
