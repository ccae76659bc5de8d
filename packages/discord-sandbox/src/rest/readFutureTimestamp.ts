import { DiscordHttpError, type FieldError } from './errors.js';

/**
 * A timestamp field that may lie at most `maxAheadMs` after `now`: undefined when absent, null to
 * lift, else Unix ms. Anything else, or a time too far ahead, is 400/50035 on the field with
 * `error`. A time in the past is accepted: it is simply over.
 */
export function readFutureTimestamp(
	fields: Record<string, unknown>,
	name: string,
	now: number,
	maxAheadMs: number,
	error: FieldError,
): number | null | undefined {
	const value = fields[name];
	if (value === undefined) return undefined;
	if (value === null) return null;
	const ms = typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? Date.parse(value) : Number.NaN;
	if (!Number.isFinite(ms) || ms > now + maxAheadMs) throw DiscordHttpError.invalidField(name, error);
	return ms;
}
