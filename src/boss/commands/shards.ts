import { ApplicationCommandType, InteractionContextType } from 'discord.js';
import { renderShards } from '../status/renderJob.js';
import type { BossCommand } from './BossCommand.js';

/** `/shards`: each worker's slice, gateway ping and state. Reads only. Anyone who may run a job may run it (see `maySeeJobs`). */
export const shardsCommand: BossCommand = {
	data: {
		type: ApplicationCommandType.ChatInput,
		name: 'shards',
		description: "Each worker's members, gateway ping and state",
		contexts: [InteractionContextType.Guild],
	},
	async run(interaction, context) {
		await interaction.reply(renderShards(context.fleet, context.boss.client.ws.ping, context.jobs.last?.progress.snapshot().workers));
	},
};
