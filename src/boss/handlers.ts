import { type ChatInputCommandInteraction, MessageFlags, type SendableChannels } from 'discord.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Job } from '../jobs/Job.js';
import type { Requester } from '../jobs/JobManager.js';
import type { BossContext } from './Boss.js';
import type { CommandName } from './commands.js';
import { LiveStatus } from './LiveStatus.js';
import { renderJobMessage, renderShards, renderStats } from './renderJob.js';

type Handler = (interaction: ChatInputCommandInteraction, context: BossContext) => Promise<void>;

/** The handler of each command in `commands.ts`, by name. */
export const handlers: Record<CommandName, Handler> = {
	async massnick(interaction, context) {
		const name = interaction.options.getString('name', true);
		const dryRun = interaction.options.getBoolean('dry_run') ?? false;
		// Refuse a bad name or a busy guild before anything is acknowledged, so the refusal is private.
		context.jobs.parseName(name);
		context.jobs.assertIdle();
		await interaction.deferReply();
		const job = await context.jobs.startRename({
			name,
			roleId: interaction.options.getRole('role')?.id,
			excludeRoleId: interaction.options.getRole('exclude_role')?.id,
			dryRun,
			startedBy: requesterOf(interaction),
		});
		const scope = describeScope(interaction);
		await interaction.editReply(
			`${dryRun ? 'Dry run: planning' : 'Renaming'} ${scope} to **${name}** with ${context.fleet.size} workers. Live progress below; /cancel stops it.`,
		);
		await showLive(interaction, context, job);
	},

	async restore(interaction, context) {
		const dryRun = interaction.options.getBoolean('dry_run') ?? false;
		const name = interaction.options.getString('name') ?? undefined;
		if (name !== undefined) context.jobs.parseName(name);
		context.jobs.assertIdle();
		await interaction.deferReply();
		const { job, fallback } = await context.jobs.startRestore({ dryRun, name, startedBy: requesterOf(interaction) });
		const prefix = dryRun ? 'Dry run: planning' : 'Restoring';
		await interaction.editReply(
			fallback
				? `No journal of original nicknames was found, so the originals cannot be brought back. ${prefix} a clear of **${job.target}** wherever it is still set instead.`
				: `${prefix} the nicknames members had before **${job.target}**. Members who picked a new nickname since keep it.`,
		);
		await showLive(interaction, context, job);
	},

	async status(interaction, context) {
		const job = context.jobs.current;
		if (job) {
			await interaction.reply({ content: 'Live status of the running job:', flags: MessageFlags.Ephemeral });
			await showLive(interaction, context, job);
			return;
		}
		const interrupted = await context.jobs.interrupted();
		if (interrupted) {
			await interaction.reply(
				`The last job (rename to **${interrupted.header.template}**, started by ${interrupted.header.startedBy.tag} at ${interrupted.header.startedAt}) did not finish. Counting what is left from the live server; run /massnick with the same name to finish it.`,
			);
			const count = context.jobs.count(interrupted.header.template ?? '', requesterOf(interaction));
			await showLive(interaction, context, count);
			return;
		}
		const last = context.jobs.last;
		if (!last) {
			await interaction.reply({ content: 'No job has run since the bot started, and no journal shows an unfinished one.', flags: MessageFlags.Ephemeral });
			return;
		}
		await interaction.reply(renderJobMessage(last));
	},

	async stats(interaction, context) {
		const name = interaction.options.getString('name') ?? context.jobs.last?.target ?? (await context.jobs.interrupted())?.header.template ?? undefined;
		if (name === undefined) {
			throw new JobError(ErrorCodes.NoJob, 'No job has run yet, so there is no name to count: give one with `name:`.');
		}
		context.jobs.parseName(name);
		await interaction.deferReply();
		const job = context.jobs.count(name, requesterOf(interaction));
		await new Promise<void>((resolve) => {
			if (job.result) resolve();
			else job.on('state', () => job.result && resolve());
		});
		if (job.result?.error) throw job.result.error;
		await interaction.editReply(renderStats(job));
	},

	async shards(interaction, context) {
		await interaction.reply(renderShards(context.fleet, context.boss.client.ws.ping, context.jobs.last));
	},

	async cancel(interaction, context) {
		const job = context.jobs.cancel();
		if (!job) {
			await interaction.reply({ content: 'No job is running.', flags: MessageFlags.Ephemeral });
			return;
		}
		await interaction.reply(
			`Cancelling the ${job.kind} of **${job.target}**: no new request goes out. What was done stays journaled; /massnick with the same name continues, /restore undoes it.`,
		);
	},
};

async function showLive(interaction: ChatInputCommandInteraction, context: BossContext, job: Job): Promise<void> {
	const channel = (interaction.channel ?? (await interaction.client.channels.fetch(interaction.channelId))) as SendableChannels | null;
	if (!channel || !('send' in channel)) return;
	const live = new LiveStatus(job, channel, context.config.statusRefreshSeconds * 1000, context.logger);
	if (job === context.jobs.current) context.boss.liveStatus = live;
	await live.start();
}

function requesterOf(interaction: ChatInputCommandInteraction): Requester {
	return { id: interaction.user.id, tag: interaction.user.tag };
}

function describeScope(interaction: ChatInputCommandInteraction): string {
	const role = interaction.options.getRole('role');
	const exclude = interaction.options.getRole('exclude_role');
	const parts = [role ? `members with @${role.name}` : 'every member'];
	if (exclude) parts.push(`except those with @${exclude.name}`);
	return parts.join(' ');
}
