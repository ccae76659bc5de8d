import type { BurstStats } from './BurstStats.js';
import { type ChangeRoute, describeChange } from './ChangeRoute.js';
import type { Measurement } from './measureSubject.js';
import type { EventLoopDelay } from './readEventLoopDelay.js';
import type { SanitizeOutcome } from './SanitizeOutcome.js';
import type { Subject, SubjectKind } from './Subject.js';
import type { SubjectRun } from './SubjectRun.js';

/**
 * One row of the results: one subject in one scenario. Rates are changes (the subject's own:
 * renames, roles given) per second of wall time at the scenario's time scale; the ceiling is
 * what the tokens' rate limits allow.
 */
export interface SubjectResult {
	subject: SubjectKind;
	/** The run's name ({@link SubjectRun.label}): the subject's kind, or what a study varied. */
	label: string;
	/** discord.js's `rest.offset` it ran with, in ms. */
	restOffsetMs: number;
	status: 'measured' | 'failed' | 'skipped';
	/** Why it failed or was skipped. */
	reason: string | null;
	/** What was counted as one change: `METHOD route status`, as the sandbox's request log names it. */
	change: string;
	tokens: number;
	/** The apps whose Server Members intent was on while the subject ran (the boss's, plus a baseline's own). */
	membersIntent: string[] | null;
	/** Who paged through the member list, from massnick's ready line; `null` for a baseline (the gateway). */
	listedBy: string[] | null;
	windowSeconds: number | null;
	changesInWindow: number | null;
	changesPerSecond: number | null;
	ceilingPerSecond: number;
	shareOfCeiling: number | null;
	/** 429s and 403s from go until the subject stopped. */
	rateLimited429: number | null;
	forbidden403: number | null;
	/** The 429s and 403s by method, route, status, error code and scope, in key order. */
	refusals: Record<string, number> | null;
	/** When the (first 50) 429s came, in ms after the first change; negative is before it. */
	rateLimitedMsAfterFirstChange: number[] | null;
	firstChangeMs: number | null;
	peakRssMB: number | null;
	cpuSecondsPer1000Changes: number | null;
	/** One token's rate-limit window at the time scale (10 s ÷ time scale): a token at its ceiling waits up to about this long between bursts. */
	rateLimitWindowMs: number;
	/** The worst worker's longest time between two successful changes in the window (a worker is one token making changes). */
	longestWorkerGapMs: number | null;
	/** The same, in rate-limit windows: a worker the listing starved would show several. */
	longestWorkerGapWindows: number | null;
	/** Each worker's longest gap, in ms, in token order. */
	workerGapsMs: number[] | null;
	/** The slowest worker's changes in the window as a share of its own ceiling (10 per window). */
	slowestWorkerShareOfCeiling: number | null;
	/** Member-list pages answered during the window: massnick's listing runs alongside the changes. */
	listingPagesInWindow: number | null;
	/** Every token's window-to-window periods in the window: the share of 10 per window free of the window's phase, and how late each window's first change came. */
	bursts: BurstStats | null;
	/** The sandbox's CPU seconds per 1000 of the subject's changes in the window: its share of the cores. */
	sandboxCpuSecondsPer1000Changes: number | null;
	/** The share of the machine's cores busy in the window, whoever used them (the machine is shared). */
	machineBusyShare: number | null;
	/** The subject's event-loop delay in the window, when the scenario probes it (readEventLoopDelay.ts). */
	eventLoopDelay: EventLoopDelay | null;
	/** For `/sanitize`: where it left the guild (who it changed, who shows a plain name now). */
	sanitized: SanitizeOutcome | null;
}

/**
 * Discord's observed limit for Modify Guild Member (REFERENCE.md §1.2), and the sandbox's for Add
 * and Remove Guild Member Role (their own bucket, docs/role-routes.md): 10 per 10 s per token and
 * guild. One ceiling for every subject.
 */
const CHANGES_PER_WINDOW = 10;
const WINDOW_SECONDS = 10;

/** Changes per second `tokens` tokens may make at `timeScale`. */
export function ceilingPerSecond(tokens: number, timeScale: number): number {
	return (tokens * CHANGES_PER_WINDOW * timeScale) / WINDOW_SECONDS;
}

/** One token's rate-limit window at `timeScale`, in ms. */
export function rateLimitWindowMs(timeScale: number): number {
	return (WINDOW_SECONDS * 1000) / timeScale;
}

export function measuredResult(
	run: SubjectRun,
	subject: Subject,
	timeScale: number,
	membersIntent: string[],
	measurement: Measurement,
	sanitized: SanitizeOutcome | null = null,
): SubjectResult {
	const { tokens } = subject;
	const seconds = measurement.windowMs / 1000;
	const rate = measurement.changesInWindow / seconds;
	const ceiling = ceilingPerSecond(tokens, timeScale);
	const windowMs = rateLimitWindowMs(timeScale);
	const gaps = measurement.tokens.map((token) => token.longestGapMs);
	const longestGap = gaps.length > 0 ? Math.max(...gaps) : null;
	const perTokenCeiling = ceilingPerSecond(1, timeScale) * seconds;
	const slowest = measurement.tokens.length > 0 ? Math.min(...measurement.tokens.map((token) => token.changesInWindow)) : null;
	const perThousand = (seconds: number): number | null => (measurement.changesInWindow > 0 ? round((seconds / measurement.changesInWindow) * 1000, 3) : null);
	return {
		subject: subject.kind,
		label: run.label,
		restOffsetMs: run.restOffsetMs,
		status: 'measured',
		reason: null,
		change: describeChange(subject.change),
		tokens,
		membersIntent,
		listedBy: subject.listedBy === null ? null : [...subject.listedBy],
		windowSeconds: seconds,
		changesInWindow: measurement.changesInWindow,
		changesPerSecond: round(rate, 2),
		ceilingPerSecond: ceiling,
		shareOfCeiling: round(rate / ceiling, 4),
		rateLimited429: measurement.tally.rateLimited,
		forbidden403: measurement.tally.forbidden,
		refusals: Object.fromEntries([...measurement.tally.refusals].sort(([a], [b]) => (a < b ? -1 : 1))),
		rateLimitedMsAfterFirstChange: measurement.tally.rateLimitedAt.map((at) => Math.round(at - (measurement.tally.firstChangeAt ?? at))),
		firstChangeMs: Math.round(measurement.firstChangeMs),
		peakRssMB: round(measurement.peakRssBytes / 2 ** 20, 1),
		cpuSecondsPer1000Changes: perThousand(measurement.cpuSecondsInWindow),
		rateLimitWindowMs: windowMs,
		longestWorkerGapMs: longestGap === null ? null : Math.round(longestGap),
		longestWorkerGapWindows: longestGap === null ? null : round(longestGap / windowMs, 2),
		workerGapsMs: gaps.map(Math.round),
		slowestWorkerShareOfCeiling: slowest === null ? null : round(slowest / perTokenCeiling, 4),
		listingPagesInWindow: measurement.listingPagesInWindow,
		bursts: measurement.bursts,
		sandboxCpuSecondsPer1000Changes: perThousand(measurement.sandboxCpuSecondsInWindow),
		machineBusyShare: measurement.machineBusyShare === null ? null : round(measurement.machineBusyShare, 3),
		eventLoopDelay: measurement.eventLoopDelay,
		sanitized,
	};
}

export function unmeasuredResult(
	run: SubjectRun,
	change: ChangeRoute,
	timeScale: number,
	status: 'failed' | 'skipped',
	reason: string,
	membersIntent: string[] | null = null,
): SubjectResult {
	const { tokens } = run;
	return {
		subject: run.kind,
		label: run.label,
		restOffsetMs: run.restOffsetMs,
		status,
		reason,
		change: describeChange(change),
		tokens,
		membersIntent,
		listedBy: null,
		windowSeconds: null,
		changesInWindow: null,
		changesPerSecond: null,
		ceilingPerSecond: ceilingPerSecond(tokens, timeScale),
		shareOfCeiling: null,
		rateLimited429: null,
		forbidden403: null,
		refusals: null,
		rateLimitedMsAfterFirstChange: null,
		firstChangeMs: null,
		peakRssMB: null,
		cpuSecondsPer1000Changes: null,
		rateLimitWindowMs: rateLimitWindowMs(timeScale),
		longestWorkerGapMs: null,
		longestWorkerGapWindows: null,
		workerGapsMs: null,
		slowestWorkerShareOfCeiling: null,
		listingPagesInWindow: null,
		bursts: null,
		sandboxCpuSecondsPer1000Changes: null,
		machineBusyShare: null,
		eventLoopDelay: null,
		sanitized: null,
	};
}

export function round(value: number, digits: number): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}
