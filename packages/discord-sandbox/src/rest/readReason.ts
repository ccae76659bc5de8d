import type { RouteRequest } from './Route.js';

/** Discord accepts reasons of 1–512 characters, URL-encoded by the client. */
const MAX_REASON = 512;

/**
 * `X-Audit-Log-Reason`, which clients URL-encode (discord.js does), decoded; at most 512
 * characters; null when absent.
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log}
 */
export function readReason(request: RouteRequest): string | null {
	const header = request.headers['x-audit-log-reason'];
	const raw = Array.isArray(header) ? header[0] : header;
	if (!raw) return null;
	let reason: string;
	try {
		reason = decodeURIComponent(raw);
	} catch {
		reason = raw;
	}
	return [...reason].slice(0, MAX_REASON).join('');
}
