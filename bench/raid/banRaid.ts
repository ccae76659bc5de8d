import { REST, Routes } from 'discord.js';
import type { RaidGuild } from './startRaidGuild.js';

/** Discord's most users in one Bulk Guild Ban. */
const BULK_BAN_USERS = 200;

/**
 * Bans `ids` before a baseline's unban, so it starts from the guild massnick's /restore starts
 * from: every raid account banned. Bulk bans of 200, spread over the sandbox's worker tokens,
 * each token one call at a time. Setup, not measured: it runs before the step notes the log's position.
 */
export async function banRaid(guild: RaidGuild, ids: readonly string[], offsetMs: number): Promise<void> {
	const { info } = guild.sandbox;
	const chunks: string[][] = [];
	for (let start = 0; start < ids.length; start += BULK_BAN_USERS) chunks.push(ids.slice(start, start + BULK_BAN_USERS));
	await Promise.all(
		info.workerTokens.map(async (token, worker) => {
			const rest = new REST({ api: info.apiUrl, offset: offsetMs }).setToken(token);
			for (const [index, chunk] of chunks.entries()) {
				if (index % info.workerTokens.length !== worker) continue;
				await rest.post(Routes.guildBulkBan(info.guildId), {
					body: { user_ids: chunk, delete_message_seconds: 0 },
					reason: 'raid bench: ban the raid before the unban',
				});
			}
		}),
	);
}
