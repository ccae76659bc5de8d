import { formatCount, formatDuration, formatRate, percent, progressBar } from './format.js';

/**
 * The figures a progress line shows: a job's `ProgressSnapshot` has them. Named here, not
 * imported, so this folder stays below every layer that shows progress (the boss, the command
 * line) and needs none of them.
 */
export interface ProgressFigures {
	readonly done: number;
	readonly total: number;
	/** Changes per second. */
	readonly rate: number;
	/** Time left, `null` while unknown. */
	readonly etaMs: number | null;
}

/** One terminal line: `[█████░░░░░] 52%  1,234/2,400  498.2/s  ETA 3s`. */
export function renderProgressLine(snapshot: ProgressFigures, width = 80): string {
	const tail = `${percent(snapshot.done, snapshot.total).padStart(4)}  ${formatCount(snapshot.done)}/${formatCount(snapshot.total)}  ${formatRate(snapshot.rate)}/s  ETA ${formatDuration(snapshot.etaMs)}`;
	const barWidth = Math.max(10, width - tail.length - 4);
	return `[${progressBar(snapshot.done, snapshot.total, barWidth)}] ${tail}`.padEnd(width).slice(0, width);
}
