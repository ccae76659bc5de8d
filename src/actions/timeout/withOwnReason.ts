import { AUDIT_LOG_REASON_MAX_LENGTH } from '../../config/index.js';

/**
 * The audit-log reason of one request: massnick's (who ran which job) then the requester's own
 * words, within Discord's 512 characters (code points, as massnick's reason is counted).
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log#audit-log-entry-object}
 */
export function withOwnReason(reason: string, own: string | undefined): string {
	if (own === undefined) return reason;
	const points = Array.from(`${reason}: ${own}`);
	return points.length > AUDIT_LOG_REASON_MAX_LENGTH ? points.slice(0, AUDIT_LOG_REASON_MAX_LENGTH).join('') : points.join('');
}
