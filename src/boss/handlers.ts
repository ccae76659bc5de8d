import { type ChatInputCommandInteraction, MessageFlags, type SendableChannels } from 'discord.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Job } from '../jobs/Job.js';
import type { Requester } from '../jobs/JobManager.js';
import type { BossContext } from './Boss.js';
import type { CommandName } from './commands.js';
import { LiveStatus } from './LiveStatus.js';
import { sleep } from '../util/sleep.js';
import { renderJobMessage, renderShards, renderStats } from './renderJob.js';

/** How long /stats waits to answer in place before it posts the count in the channel. */
const STATS_WAIT_MS = 10_000;

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
		const job = context.jobs.current ?? context.jobs.last;
		if (job && !job.result) {
			await interaction.reply({ content: 'Live status of the running job:', flags: MessageFlags.Ephemeral });
			await showLive(interaction, context, job);
			return;
		}
		if (job) {
			await interaction.reply(renderJobMessage(job));
			return;
		}
		// Reading the journals touches the disk: acknowledge first (Discord allows 3 s).
		await interaction.deferReply();
		const interrupted = await context.jobs.interrupted();
		if (!interrupted) {
			await interaction.editReply('No job has run since the bot started, and no journal shows an unfinished one.');
			return;
		}
		const template = interrupted.header.template ?? '';
		await interaction.editReply(
			`The last job (rename to **${template}**, started by ${interrupted.header.startedBy.tag} at ${interrupted.header.startedAt}) did not finish. Counting what is left from the live server; run /massnick with the same name to finish it.`,
		);
		await showLive(interaction, context, context.jobs.count(template, requesterOf(interaction)));
	},

	async stats(interaction, context) {
		await interaction.deferReply();
		const name =
			interaction.options.getString('name') ?? context.jobs.last?.target ?? (await context.jobs.interrupted())?.header.template ?? undefined;
		if (name === undefined) {
			throw new JobError(ErrorCodes.NoJob, 'No job has run yet, so there is no name to count: give one with `name:`.');
		}
		context.jobs.parseName(name);
		const job = context.jobs.count(name, requesterOf(interaction));
		// A large guild takes longer to count than an interaction token lives (15 minutes): past a
		// few seconds the answer goes to the channel instead.
		const done = await Promise.race([job.ended().then(() => true), sleep(STATS_WAIT_MS).then(() => false)]);
		if (done) {
			if (job.result?.error) throw job.result.error;
			await interaction.editReply(renderStats(job));
			return;
		}
		await interaction.editReply(`Counting “${job.target}” from the live server; the result will be posted in this channel.`);
		await job.ended();
		const channel = await channelOf(interaction);
		await channel?.send(job.result?.error ? `Counting failed: ${job.result.error.message}` : renderStats(job));
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

/** Posts the live status message; a channel the bot cannot post in does not undo the job. */
async function showLive(interaction: ChatInputCommandInteraction, context: BossContext, job: Job): Promise<void> {
	const channel = await channelOf(interaction);
	if (!channel) return;
	const live = new LiveStatus(job, channel, context.config.statusRefreshSeconds * 1000, context.logger);
	if (job === context.jobs.current) context.boss.liveStatus = live;
	try {
		await live.start();
	} catch (error) {
		live.stop();
		context.logger.warn({ err: error }, 'could not post the live status');
		await interaction.followUp({
			content: 'The job runs, but the live status could not be posted in this channel (does the boss have Send Messages here?). Use /status in another channel.',
			flags: MessageFlags.Ephemeral,
		});
	}
}

async function channelOf(interaction: ChatInputCommandInteraction): Promise<SendableChannels | undefined> {
	const channel = interaction.channel ?? (await interaction.client.channels.fetch(interaction.channelId));
	return channel && 'send' in channel ? (channel as SendableChannels) : undefined;
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
