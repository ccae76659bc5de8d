import type { Measurement } from './measureSubject.js';
import type { Subject, SubjectKind } from './Subject.js';

/**
 * One row of the results: one subject in one scenario. Rates are renames per second of wall
 * time at the scenario's time scale; the ceiling is what the tokens' rate limits allow.
 */
export interface SubjectResult {
	subject: SubjectKind;
	status: 'measured' | 'failed' | 'skipped';
	/** Why it failed or was skipped. */
	reason: string | null;
	tokens: number;
	/** The apps whose Server Members intent was on while the subject ran (the boss's, plus a baseline's own). */
	membersIntent: string[] | null;
	/** Who paged through the member list, from massnick's ready line; `null` for a baseline (the gateway). */
	listedBy: string[] | null;
	windowSeconds: number | null;
	renamesInWindow: number | null;
	renamesPerSecond: number | null;
	ceilingPerSecond: number;
	shareOfCeiling: number | null;
	/** 429s and 403s from go until the subject stopped. */
	rateLimited429: number | null;
	forbidden403: number | null;
	/** The 429s and 403s by method, route, status, error code and scope, in key order. */
	refusals: Record<string, number> | null;
	/** When the (first 50) 429s came, in ms after the first rename; negative is before it. */
	rateLimitedMsAfterFirstRename: number[] | null;
	firstRenameMs: number | null;
	peakRssMB: number | null;
	cpuSecondsPer1000Renames: number | null;
	/** One token's rate-limit window at the time scale (10 s ÷ time scale): a token at its ceiling waits up to about this long between bursts. */
	rateLimitWindowMs: number;
	/** The worst worker's longest time between two successful renames in the window (a worker is one renaming token). */
	longestWorkerGapMs: number | null;
	/** The same, in rate-limit windows: a worker the listing starved would show several. */
	longestWorkerGapWindows: number | null;
	/** Each worker's longest gap, in ms, in token order. */
	workerGapsMs: number[] | null;
	/** The slowest worker's renames in the window as a share of its own ceiling (10 per window). */
	slowestWorkerShareOfCeiling: number | null;
	/** Member-list pages answered during the window: massnick's listing runs alongside the renames. */
	listingPagesInWindow: number | null;
}

/** Discord's observed Modify Guild Member limit: 10 per 10 s per token (REFERENCE.md §1.2). */
const RENAMES_PER_WINDOW = 10;
const WINDOW_SECONDS = 10;

/** Renames per second `tokens` tokens may make at `timeScale`. */
export function ceilingPerSecond(tokens: number, timeScale: number): number {
	return (tokens * RENAMES_PER_WINDOW * timeScale) / WINDOW_SECONDS;
}

/** One token's rate-limit window at `timeScale`, in ms. */
export function rateLimitWindowMs(timeScale: number): number {
	return (WINDOW_SECONDS * 1000) / timeScale;
}

export function measuredResult(subject: Subject, timeScale: number, membersIntent: string[], measurement: Measurement): SubjectResult {
	const { tokens } = subject;
	const seconds = measurement.windowMs / 1000;
	const rate = measurement.renamesInWindow / seconds;
	const ceiling = ceilingPerSecond(tokens, timeScale);
	const windowMs = rateLimitWindowMs(timeScale);
	const gaps = measurement.tokens.map((token) => token.longestGapMs);
	const longestGap = gaps.length > 0 ? Math.max(...gaps) : null;
	const perTokenCeiling = ceilingPerSecond(1, timeScale) * seconds;
	const slowest = measurement.tokens.length > 0 ? Math.min(...measurement.tokens.map((token) => token.renamesInWindow)) : null;
	return {
		subject: subject.kind,
		status: 'measured',
		reason: null,
		tokens,
		membersIntent,
		listedBy: subject.listedBy === null ? null : [...subject.listedBy],
		windowSeconds: seconds,
		renamesInWindow: measurement.renamesInWindow,
		renamesPerSecond: round(rate, 2),
		ceilingPerSecond: ceiling,
		shareOfCeiling: round(rate / ceiling, 4),
		rateLimited429: measurement.tally.rateLimited,
		forbidden403: measurement.tally.forbidden,
		refusals: Object.fromEntries([...measurement.tally.refusals].sort(([a], [b]) => (a < b ? -1 : 1))),
		rateLimitedMsAfterFirstRename: measurement.tally.rateLimitedAt.map((at) => Math.round(at - (measurement.tally.firstRenameAt ?? at))),
		firstRenameMs: Math.round(measurement.firstRenameMs),
		peakRssMB: round(measurement.peakRssBytes / 2 ** 20, 1),
		cpuSecondsPer1000Renames: measurement.renamesInWindow > 0 ? round((measurement.cpuSecondsInWindow / measurement.renamesInWindow) * 1000, 3) : null,
		rateLimitWindowMs: windowMs,
		longestWorkerGapMs: longestGap === null ? null : Math.round(longestGap),
		longestWorkerGapWindows: longestGap === null ? null : round(longestGap / windowMs, 2),
		workerGapsMs: gaps.map(Math.round),
		slowestWorkerShareOfCeiling: slowest === null ? null : round(slowest / perTokenCeiling, 4),
		listingPagesInWindow: measurement.listingPagesInWindow,
	};
}

export function unmeasuredResult(subject: SubjectKind, tokens: number, timeScale: number, status: 'failed' | 'skipped', reason: string, membersIntent: string[] | null = null): SubjectResult {
	return {
		subject,
		status,
		reason,
		tokens,
		membersIntent,
		listedBy: null,
		windowSeconds: null,
		renamesInWindow: null,
		renamesPerSecond: null,
		ceilingPerSecond: ceilingPerSecond(tokens, timeScale),
		shareOfCeiling: null,
		rateLimited429: null,
		forbidden403: null,
		refusals: null,
		rateLimitedMsAfterFirstRename: null,
		firstRenameMs: null,
		peakRssMB: null,
		cpuSecondsPer1000Renames: null,
		rateLimitWindowMs: rateLimitWindowMs(timeScale),
		longestWorkerGapMs: null,
		longestWorkerGapWindows: null,
		workerGapsMs: null,
		slowestWorkerShareOfCeiling: null,
		listingPagesInWindow: null,
	};
}

export function round(value: number, digits: number): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}
