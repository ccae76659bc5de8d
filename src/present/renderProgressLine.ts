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

/** What a following rule's terminal line shows: a job's `Progress.followed` has them. */
export interface FollowingFigures {
	/** When it began to follow joins (Unix ms), `null` before. */
	readonly since: number | null;
	readonly changed: number;
	readonly cant: number;
	readonly failed: number;
	/** When it last changed a joiner or a member who changed (Unix ms), `null` before the first. */
	readonly lastChangeAt: number | null;
}

/**
 * One terminal line for a standing rule past its sweep, which has no bar to fill, in 80 columns:
 * `following joins 3h 02m · applied 12 · can't 1 · failed 0 · last change 42s ago`, the counts
 * those of the joiners and the members who changed.
 */
export function renderFollowingLine(figures: FollowingFigures, now: number, width = 80): string {
	const since = figures.since === null ? '' : ` ${formatDuration(now - figures.since)}`;
	const last = figures.lastChangeAt === null ? 'no change yet' : `last change ${formatDuration(now - figures.lastChangeAt)} ago`;
	const counts = `applied ${formatCount(figures.changed)} · can't ${formatCount(figures.cant)} · failed ${formatCount(figures.failed)}`;
	return `following joins${since} · ${counts} · ${last}`.padEnd(width).slice(0, width);
}
