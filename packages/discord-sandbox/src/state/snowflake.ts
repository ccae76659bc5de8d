/** The first millisecond of 2015 (UTC): Discord's epoch for snowflakes. */
export const DISCORD_EPOCH = 1_420_070_400_000;

/**
 * Builds a Discord snowflake from its parts.
 *
 * ```
 *  63                                          22 21    17 16    12 11          0
 * +----------------------------------------------+--------+--------+-------------+
 * |  milliseconds since DISCORD_EPOCH (42 bits)  | worker | process|  increment  |
 * +----------------------------------------------+--------+--------+-------------+
 * ```
 *
 * @see {@link https://discord.com/developers/docs/reference#snowflakes}
 */
export function makeSnowflake(timestampMs: number, worker = 0, process = 0, increment = 0): bigint {
	return (BigInt(timestampMs - DISCORD_EPOCH) << 22n) | (BigInt(worker & 0x1f) << 17n) | (BigInt(process & 0x1f) << 12n) | BigInt(increment & 0xfff);
}

/** The Unix time in milliseconds at which a snowflake was made. */
export function snowflakeTimestamp(id: bigint | string): number {
	return Number(BigInt(id) >> 22n) + DISCORD_EPOCH;
}

/** Whether `value` is written like a snowflake (what Discord accepts as an id in a path or query). */
export function isSnowflake(value: string): boolean {
	return /^(0|[1-9]\d{0,19})$/.test(value) && BigInt(value) < 1n << 64n;
}

/**
 * Hands out increasing snowflakes for things the sandbox creates at run time (messages,
 * interactions, audit log entries, commands), so that ids sort in creation order as on Discord.
 */
export class SnowflakeGenerator {
	#last = 0n;

	public constructor(private readonly now: () => number) {}

	public next(): bigint {
		let id = makeSnowflake(this.now(), 1, 1, 0);
		if (id <= this.#last) id = this.#last + 1n;
		this.#last = id;
		return id;
	}

	/** Never hand out an id at or below `id` (used after members were appended with their own ids). */
	public advancePast(id: bigint): void {
		if (id > this.#last) this.#last = id;
	}
}
