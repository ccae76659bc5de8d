import { formatIdRuns } from '../util/formatIdRuns.js';

/** `1h 02m`, `3m 05s`, `42s`; `—` for an unknown duration. */
export function formatDuration(ms: number | null): string {
	if (ms === null || !Number.isFinite(ms) || ms < 0) return '—';
	const seconds = Math.round(ms / 1000);
	const hours = Math.floor(seconds / 3600);
	const minutes = Math.floor((seconds % 3600) / 60);
	const rest = seconds % 60;
	if (hours > 0) return `${hours}h ${String(minutes).padStart(2, '0')}m`;
	if (minutes > 0) return `${minutes}m ${String(rest).padStart(2, '0')}s`;
	return `${rest}s`;
}

/** A bar of `width` cells, e.g. `█████░░░░░`; an empty total shows an empty bar. */
export function progressBar(done: number, total: number, width: number): string {
	const share = total > 0 ? Math.min(1, done / total) : 0;
	const full = Math.round(share * width);
	return '█'.repeat(full) + '░'.repeat(width - full);
}

/** `52%`, never NaN. */
export function percent(done: number, total: number): string {
	return `${total > 0 ? Math.floor((Math.min(done, total) / total) * 100) : 0}%`;
}

/** Renames per second with one decimal, never NaN. */
export function formatRate(perSecond: number): string {
	return Number.isFinite(perSecond) ? perSecond.toFixed(1) : '0.0';
}

/** `12,345` */
export function formatCount(count: number): string {
	return count.toLocaleString('en-US');
}

/**
 * The workers a process holds among `count`, for people: `all 10 workers`, `worker 3 of 4`,
 * `workers 0–4 of 10`, `workers 0, 3–5 of 10`, `none of the 10 workers`. Ids in order; runs of
 * consecutive ids are written as ranges, as `WORKER_IDS` takes them.
 */
export function formatWorkers(ids: readonly number[], count: number): string {
	if (ids.length === 0) return `none of the ${formatCount(count)} workers`;
	if (ids.length === count) return count === 1 ? 'the one worker' : `all ${formatCount(count)} workers`;
	return `${ids.length === 1 ? 'worker' : 'workers'} ${formatIdRuns(ids)} of ${formatCount(count)}`;
}
