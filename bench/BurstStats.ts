import { percentile } from './percentile.js';
import type { TokenBursts } from './tokenBursts.js';

/** Changes a token may make per rate-limit window (Modify Guild Member, and the member-role routes). */
const CHANGES_PER_WINDOW = 10;

/**
 * Every token's windows in the measured window, together: how close each came to 10 changes per
 * rate-limit window, measured from one window's first change to the next (tokenBursts.ts).
 */
export interface BurstStats {
	/** Window-to-window periods measured, over all tokens. */
	periods: number;
	/** Their changes ÷ (their time ÷ one window × 10): each token's share of its ceiling, free of where the bursts fall in the measured window. */
	share: number;
	periodMedianMs: number;
	periodP90Ms: number;
	periodP99Ms: number;
	periodMinMs: number;
	periodMaxMs: number;
	/** The median period less one window: how long a window's allowance waits, typically, past the reset. */
	lateMedianMs: number;
	/** Periods with fewer than 10 changes: a token left without members, or refused. */
	shortPeriods: number;
}

export function burstStats(tokens: readonly TokenBursts[], rateLimitWindowMs: number): BurstStats | null {
	const periods = tokens.flatMap((token) => token.periodsMs).sort((a, b) => a - b);
	if (periods.length === 0) return null;
	const changes = tokens.flatMap((token) => token.changes);
	const totalMs = periods.reduce((sum, period) => sum + period, 0);
	const totalChanges = changes.reduce((sum, count) => sum + count, 0);
	const at = (p: number): number => Math.round(percentile(periods, p)! * 10) / 10;
	return {
		periods: periods.length,
		share: Math.round((totalChanges / ((totalMs / rateLimitWindowMs) * CHANGES_PER_WINDOW)) * 10_000) / 10_000,
		periodMedianMs: at(50),
		periodP90Ms: at(90),
		periodP99Ms: at(99),
		periodMinMs: periods[0]!,
		periodMaxMs: periods[periods.length - 1]!,
		lateMedianMs: Math.round((percentile(periods, 50)! - rateLimitWindowMs) * 10) / 10,
		shortPeriods: changes.filter((count) => count < CHANGES_PER_WINDOW).length,
	};
}
