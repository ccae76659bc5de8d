import type { KeepOptions } from '../job/JobOptions.js';
import type { KeepRecord } from '../journal/runRecord.js';

/** A rule's `keep` for its run record: `until` as ISO 8601, which people can read in the file. */
export function keepRecord(keep: KeepOptions): KeepRecord {
	return keep.until === undefined ? {} : { until: new Date(keep.until).toISOString() };
}

/** The `keep` a run record holds, for a restart to resume the rule as one; `undefined` for a job. */
export function keepOf(record: { readonly keep?: KeepRecord | undefined } | undefined): KeepOptions | undefined {
	const keep = record?.keep;
	if (!keep || typeof keep !== 'object') return undefined;
	const until = typeof keep.until === 'string' ? Date.parse(keep.until) : Number.NaN;
	return Number.isFinite(until) ? { until } : {};
}
