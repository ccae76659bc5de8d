/** What one `/masskick` was asked with, as its journal keeps it. */
export interface KickRequest {
	/** When it was asked (ISO 8601): every `/masskick` is a journal of its own. */
	readonly askedAt: string;
	/** The moderator's own words for the audit log; `undefined` when none. */
	readonly reason?: string | undefined;
}

/**
 * A kick's target as its journal keeps it: the time it was asked, then its reason after one
 * space (`2026-05-01T12:00:00.000Z raid of May 1st`). The time keeps each kick a journal of its
 * own, so the newest kick is always the newest journal, the one `/restore` answers about (an old
 * kick journal is never appended to weeks later); a resume after a crash reads both back.
 */
export function kickTarget({ askedAt, reason }: KickRequest): string {
	return reason ? `${askedAt} ${reason}` : askedAt;
}

/** The request a kick's target was made from (see {@link kickTarget}). */
export function parseKickTarget(target: string): KickRequest {
	const space = target.indexOf(' ');
	if (space === -1) return { askedAt: target };
	return { askedAt: target.slice(0, space), reason: target.slice(space + 1) };
}
