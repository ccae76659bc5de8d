import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { isSnowflake } from '../state/snowflake.js';
import { DiscordHttpError } from './errors.js';

/** An integer query parameter in [min, max], with Discord's 50035 errors when it isn't. */
export function integerQuery(query: URLSearchParams, name: string, options: { min: number; max: number; fallback: number }): number {
	const raw = query.get(name);
	if (raw === null || raw === '') return options.fallback;
	const value = Number(raw);
	if (!Number.isInteger(value)) throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_COERCE', message: `Value "${raw}" is not int.` });
	if (value < options.min)
		throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_MIN', message: `int value should be greater than or equal to ${options.min}.` });
	if (value > options.max)
		throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${options.max}.` });
	return value;
}

/** A snowflake query parameter, or undefined when absent. */
export function snowflakeQuery(query: URLSearchParams, name: string): bigint | undefined {
	const raw = query.get(name);
	if (raw === null || raw === '') return undefined;
	if (!isSnowflake(raw)) throw DiscordHttpError.invalidField(name, { code: 'NUMBER_TYPE_COERCE', message: `Value "${raw}" is not snowflake.` });
	return BigInt(raw);
}

/** 404/10004 unless the id is the sandbox's guild (the only one our bots are in). */
export function requireGuild(state: SandboxState, guildId: string | undefined): string {
	if (guildId !== state.guildId) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownGuild);
	return guildId;
}
