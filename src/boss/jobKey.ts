import type { Job } from '../jobs/index.js';

/**
 * A short name for one run of a job, for the custom_ids of its status buttons. A job's id is not
 * enough: a rerun appends to the same journal under the same id, and a restore takes the id of
 * the job it undoes. The start time (in base 36) and a hash of the id and mode tell runs apart,
 * and stay well within Discord's 100 characters for a custom_id.
 */
export function jobKey(job: Pick<Job, 'id' | 'mode' | 'startedAt'>): string {
	return `${job.startedAt.toString(36)}.${fnv1a(`${job.mode}/${job.id}`).toString(36)}`;
}

/** FNV-1a, 32 bits: a cheap, stable hash; collisions only matter between runs started the same millisecond. */
function fnv1a(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash;
}
