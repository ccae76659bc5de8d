import { time, TimestampStyles } from 'discord.js';
import type { ProgressSnapshot } from '../../jobs/index.js';
import { formatCount } from '../../present/index.js';

/**
 * The line above a resumed job's live status: when it resumed and, once the listing has placed
 * every member, how many are left of how many (members done before the restart pass as already
 * done, without a request).
 */
export function resumedLine(snapshot: ProgressSnapshot, resumedAt: Date, ended: boolean): string {
	const when = `🔁 Resumed after a restart at ${time(resumedAt, TimestampStyles.LongDateTime)}`;
	if (ended) return `${when}.`;
	if (!snapshot.listingDone) return `${when}: members already done are skipped; counting what is left.`;
	return `${when}: ${formatCount(snapshot.total - snapshot.done)} of ${formatCount(snapshot.total)} left.`;
}
