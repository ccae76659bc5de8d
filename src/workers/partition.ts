import { ErrorCodes, MassnickError } from '../errors.js';
import { isSnowflake, SNOWFLAKE_TIMESTAMP_SHIFT } from '../discord/snowflake.js';

/**
 * The worker that owns `memberId` among `workerCount` workers: `(id >> 22) % workerCount`.
 *
 * This is the only coordination between workers: each computes its own slice from the member
 * list, and every worker computes the same answer for the same id. The shift drops the worker,
 * process and increment bits and keeps the creation millisecond (see `snowflake.ts`), whose
 * residue is spread evenly; Discord uses the same formula to shard guilds across gateway
 * connections. Changing `workerCount` moves most members to another worker; reruns stay correct
 * because the planner skips members already done, but the work is then split differently.
 *
 * @see https://discord.com/developers/docs/events/gateway#sharding
 * @throws {MassnickError} `INVALID_ARGUMENT` when `workerCount` is not a positive integer,
 * `INVALID_SNOWFLAKE` when `memberId` is not a snowflake.
 */
export function workerIndexOf(memberId: string | bigint, workerCount: number): number {
	if (!Number.isSafeInteger(workerCount) || workerCount < 1) {
		throw new MassnickError(ErrorCodes.InvalidArgument, `workerCount must be a positive integer, got ${workerCount}`);
	}
	const text = typeof memberId === 'bigint' ? memberId.toString() : memberId;
	if (!isSnowflake(text)) throw new MassnickError(ErrorCodes.InvalidSnowflake, `${JSON.stringify(text)} is not a snowflake`);
	return Number((BigInt(text) >> SNOWFLAKE_TIMESTAMP_SHIFT) % BigInt(workerCount));
}
