import { ApplicationCommandType, InteractionContextType, PermissionFlagsBits } from 'discord.js';
import { renderShards } from '../status/renderJob.js';
import type { BossCommand } from './BossCommand.js';

/** `/shards`: each worker's slice, gateway ping and state. Reads only. Members with Manage Nicknames see it. */
export const shardsCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'shards',
		description: "Each worker's members, gateway ping and state",
		default_member_permissions: String(PermissionFlagsBits.ManageNicknames),
		contexts: [InteractionContextType.Guild],
	},
	async run(interaction, context) {
		await interaction.reply(renderShards(context.fleet, context.boss.client.ws.ping, context.jobs.last?.progress.snapshot().workers));
	},
};
