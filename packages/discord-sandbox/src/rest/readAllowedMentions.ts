import { AllowedMentionsTypes, type APIAllowedMentions } from 'discord-api-types/v10';
import { isSnowflake } from '../state/snowflake.js';
import { DiscordHttpError, type FieldError } from './errors.js';

const TYPES: readonly string[] = [AllowedMentionsTypes.Role, AllowedMentionsTypes.User, AllowedMentionsTypes.Everyone];

/** At most this many ids in `users` and in `roles`. */
const MAX_IDS = 100;

/**
 * A request's `allowed_mentions`, checked as Discord checks it, every problem in one 50035 (the
 * nested shape `{"allowed_mentions": {"users": {"1": {"_errors": [...]}}}}`); undefined when the
 * request has none (or `null`), which means the context's default (see `resolveMentions`).
 *
 * - `parse` holds only `roles`, `users`, `everyone` (BASE_TYPE_CHOICES), `users` and `roles` only
 *   snowflakes (NUMBER_TYPE_COERCE), at most 100 each; all three are sets, so a repeated value is
 *   SET_TYPE_ALREADY_CONTAINS_VALUE (the spec's `uniqueItems`; the error as bots report it).
 * - Then, once every field is well formed, `parse` with `users` (or `roles`) and a non-empty
 *   `users` (or `roles`) list is ambiguous: MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE on
 *   `allowed_mentions` itself, with Discord's message `parse:["users"] and users: [ids...] are
 *   mutually exclusive.` (discord-haskell #75, Mephisto5558/Teufelsbot #287). An empty or null
 *   list is no conflict, as the docs say.
 *
 * @see {@link https://discord.com/developers/docs/resources/message#allowed-mentions-object}
 */
export function readAllowedMentions(value: unknown, prefix: string): APIAllowedMentions | undefined {
	if (value === undefined || value === null) return undefined;
	const at = `${prefix}allowed_mentions`;
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw DiscordHttpError.invalidField(at, { code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' });
	}
	const source = value as Record<string, unknown>;
	const problems: Array<[string, FieldError]> = [];
	const readSet = (key: 'parse' | 'users' | 'roles', check: (item: unknown) => FieldError | null): string[] | undefined => {
		const list = source[key];
		if (list === undefined || list === null) return undefined;
		if (!Array.isArray(list)) {
			problems.push([`${at}.${key}`, { code: 'BASE_TYPE_LIST', message: 'Must be a list.' }]);
			return undefined;
		}
		if (key !== 'parse' && list.length > MAX_IDS)
			problems.push([`${at}.${key}`, { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_IDS} or fewer in length.` }]);
		list.forEach((item, index) => {
			const problem =
				check(item) ?? (list.indexOf(item) < index ? { code: 'SET_TYPE_ALREADY_CONTAINS_VALUE', message: 'The set already contains this value' } : null);
			if (problem) problems.push([`${at}.${key}.${index}`, problem]);
		});
		return list as string[];
	};
	const parse = readSet('parse', (item) =>
		typeof item === 'string' && TYPES.includes(item)
			? null
			: { code: 'BASE_TYPE_CHOICES', message: `Value must be one of (${TYPES.map((type) => `'${type}'`).join(', ')}).` },
	);
	const snowflake = (item: unknown): FieldError | null =>
		typeof item === 'string' && isSnowflake(item) ? null : { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(item)}" is not snowflake.` };
	const users = readSet('users', snowflake);
	const roles = readSet('roles', snowflake);
	if (source.replied_user !== undefined && source.replied_user !== null && typeof source.replied_user !== 'boolean') {
		problems.push([`${at}.replied_user`, { code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }]);
	}
	if (problems.length > 0) throw DiscordHttpError.invalidFields(problems);
	// Only a well-formed object is checked as a whole, as a field's type errors come first.
	for (const [type, list] of [
		[AllowedMentionsTypes.User, users],
		[AllowedMentionsTypes.Role, roles],
	] as const) {
		if (parse?.includes(type) && list?.length) {
			problems.push([at, { code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE', message: `parse:["${type}"] and ${type}: [ids...] are mutually exclusive.` }]);
		}
	}
	if (problems.length > 0) throw DiscordHttpError.invalidFields(problems);
	return {
		parse: (parse ?? []) as AllowedMentionsTypes[],
		...(users ? { users } : {}),
		...(roles ? { roles } : {}),
		...(typeof source.replied_user === 'boolean' ? { replied_user: source.replied_user } : {}),
	};
}
