import type { SendableChannels } from 'discord.js';
import type { BossContext } from '../BossContext.js';

/** A channel of the guild the boss can post in, by id; `undefined` when it is gone or not one. */
export async function sendableChannel(context: BossContext, channelId: string): Promise<SendableChannels | undefined> {
	const { client } = context.boss;
	const channel = client.channels.cache.get(channelId) ?? (await client.channels.fetch(channelId).catch(() => null));
	return channel?.isSendable() ? channel : undefined;
}
