/**
 * The shard a guild's events go to: `(guild_id >> 22) % num_shards`
 * ({@link https://discord.com/developers/docs/events/gateway#sharding | Sharding}).
 *
 * Events without a guild (an empty `guildId`) belong to shard 0.
 */
export function shardIdForGuild(guildId: string, shardCount: number): number {
	if (guildId === '' || shardCount <= 1) return 0;
	return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}
