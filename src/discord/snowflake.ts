/**
 * Discord snowflakes: 64-bit ids, always strings in JSON, always BigInt here (they exceed 2^53).
 *
 * ```text
 *  63                                          22 21     17 16     12 11          0
 * ┌──────────────────────────────────────────────┬─────────┬─────────┬─────────────┐
 * │ milliseconds since DISCORD_EPOCH (42 bits)   │ worker  │ process │ increment   │
 * │                                              │ (5)     │ (5)     │ (12)        │
 * └──────────────────────────────────────────────┴─────────┴─────────┴─────────────┘
 * timestamp = (id >> 22) + 1420070400000
 * ```
 *
 * The low 22 bits are why massnick shifts by 22 before partitioning: what is left is the creation
 * millisecond, whose last digits are as good as random.
 *
 * @see https://discord.com/developers/docs/reference#snowflakes
 */

/** The first millisecond of 2015 (UTC), where Discord's snowflake clock starts. */
export const DISCORD_EPOCH = 1420070400000n;

/** How far the timestamp is shifted up: 5 worker + 5 process + 12 increment bits. */
export const SNOWFLAKE_TIMESTAMP_SHIFT = 22n;

const MAX_SNOWFLAKE = (1n << 64n) - 1n;

/**
 * Whether `value` is a snowflake as Discord writes one: 17 to 20 decimal digits, no sign, no
 * spaces, and fitting in 64 bits. Ids shorter than 17 digits would predate Discord itself, and
 * @discordjs/rest's route bucketing assumes at least 17 digits.
 */
export function isSnowflake(value: unknown): value is string {
	if (typeof value !== 'string' || !/^[0-9]{17,20}$/.test(value)) return false;
	return BigInt(value) <= MAX_SNOWFLAKE;
}

/** The creation time of `id`, in Unix milliseconds. */
export function snowflakeToTimestamp(id: string | bigint): number {
	const value = typeof id === 'bigint' ? id : BigInt(id);
	if (value < 0n || value > MAX_SNOWFLAKE) throw new RangeError(`${value} is not a 64-bit snowflake`);
	return Number((value >> SNOWFLAKE_TIMESTAMP_SHIFT) + DISCORD_EPOCH);
}

/**
 * The smallest snowflake created at `ms` (worker, process and increment all zero): what Discord's
 * `before`/`after` pagination parameters expect for a point in time.
 */
export function timestampToSnowflake(ms: number | Date): bigint {
	const time = typeof ms === 'number' ? ms : ms.getTime();
	if (!Number.isFinite(time)) throw new RangeError(`${time} is not a time`);
	const offset = BigInt(Math.trunc(time)) - DISCORD_EPOCH;
	if (offset < 0n) throw new RangeError(`${new Date(time).toISOString()} is before Discord's epoch (2015-01-01)`);
	return offset << SNOWFLAKE_TIMESTAMP_SHIFT;
}
