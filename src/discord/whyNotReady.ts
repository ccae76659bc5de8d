import { type Client, Status } from 'discord.js';

/**
 * Why `client` cannot serve `guildId` now, or `undefined` when it can: logged in, every gateway
 * connection up (not resuming or reconnecting), and the guild in its cache and available (Discord
 * marks a guild unavailable during an outage, with GUILD_DELETE `unavailable: true`). Read from
 * discord.js's state alone: a health probe sends no request to Discord.
 *
 * @see https://discord.com/developers/docs/topics/gateway-events#guild-delete
 */
export function whyNotReady(client: Client, guildId: string, who: string): string | undefined {
	if (!client.isReady()) return `${who} is not logged in to Discord`;
	const down = client.ws.shards.find((shard) => shard.status !== Status.Ready);
	// `WaitingForGuilds` → `waiting for guilds`.
	if (down) return `${who}'s gateway connection is ${Status[down.status].replace(/\B([A-Z])/g, ' $1').toLowerCase()}`;
	const guild = client.guilds.cache.get(guildId);
	if (!guild) return `${who} is not in guild ${guildId}`;
	if (!guild.available) return `guild ${guildId} is unavailable (a Discord outage)`;
	return undefined;
}
