import { DiscordHttpError } from './errors.js';

/** A week, the most a ban deletes messages for. */
const MAX_DELETE_SECONDS = 604_800;

/**
 * A ban's body (`delete_message_seconds` 0–604800, or the deprecated `delete_message_days` 0–7),
 * checked with Discord's 50035 bodies. The sandbox stores no member messages, so the value is
 * only validated; the caller gets the body as an object.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#create-guild-ban}
 */
export function readBanBody(body: unknown): Record<string, unknown> {
	const fields = readDict(body);
	checkInteger(fields, 'delete_message_seconds', MAX_DELETE_SECONDS);
	checkInteger(fields, 'delete_message_days', 7);
	return fields;
}

/**
 * A bulk ban's body: `delete_message_seconds` checked as for one ban; Bulk Guild Ban has no
 * `delete_message_days` (Discord's spec lists `user_ids` and `delete_message_seconds` only), so
 * one sent is ignored, as Discord ignores fields a route does not take.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#bulk-guild-ban}
 */
export function readBulkBanBody(body: unknown): Record<string, unknown> {
	const fields = readDict(body);
	checkInteger(fields, 'delete_message_seconds', MAX_DELETE_SECONDS);
	return fields;
}

function readDict(body: unknown): Record<string, unknown> {
	if (body === undefined || body === null) return {};
	if (typeof body !== 'object' || Array.isArray(body))
		throw DiscordHttpError.invalidFormBody({ _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
	return body as Record<string, unknown>;
}

function checkInteger(fields: Record<string, unknown>, name: string, max: number): void {
	const value = fields[name];
	if (value === undefined || value === null) return;
	if (typeof value !== 'number' || !Number.isInteger(value))
		throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(value)}" is not int.` });
	if (value < 0) throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 0.' });
	if (value > max) throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${max}.` });
}
