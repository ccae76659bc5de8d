import type { ChatInputCommandInteraction } from 'discord.js';
import { describeLockdown, discordTime, isLockedDown, readLockdown } from '../../lockdown/index.js';
import type { BossContext } from '../BossContext.js';

/**
 * After /status's answer, a line in the channel when the server is locked down (invites or DMs
 * paused, by /lockdown or in Discord's own menu): until when, and how to open it. Read fresh from
 * Discord; nothing is said when nothing is paused, or when Discord cannot be read or written to
 * just now (the job's status above is what was asked for).
 */
export async function showLockdown(interaction: ChatInputCommandInteraction, context: BossContext): Promise<void> {
	try {
		const lockdown = await readLockdown(context.boss.client.rest, context.config.guildId);
		if (!isLockedDown(lockdown)) return;
		await interaction.followUp(`🔒 **Lockdown in force**: ${describeLockdown(lockdown, discordTime)}. \`/lockdown off\` opens them now.`);
	} catch (error) {
		// Not thrown on: the command's error reply would overwrite the job's status above it.
		context.logger.warn({ err: error }, 'could not show the lockdown in /status');
	}
}
