import { type ChatInputCommandInteraction, MessageFlags, type SendableChannels } from 'discord.js';
import { ClearNicknameAction } from '../actions/nickname/ClearNicknameAction.js';
import { NicknameAction } from '../actions/nickname/NicknameAction.js';
import { parseTemplate } from '../actions/nickname/template.js';
import { checkAssignable } from '../actions/role/checkAssignable.js';
import { RoleAction } from '../actions/role/RoleAction.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Job } from '../jobs/Job.js';
import type { Requester } from '../jobs/JobManager.js';
import type { MassAction } from '../jobs/MassAction.js';
import type { BossContext } from './BossContext.js';
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
		const action = nicknameAction(name, context);
		await startJob(interaction, context, action, {
			onlyRoleId: interaction.options.getRole('role')?.id,
			excludeRoleId: interaction.options.getRole('exclude_role')?.id,
		});
	},

	async massrole(interaction, context) {
		const mode = interaction.options.getSubcommand(true) === 'remove' ? 'remove' : 'add';
		const chosen = interaction.options.getRole('role', true);
		// The boss's cache has every role with its position and whether an integration manages it.
		const role = interaction.guild?.roles.cache.get(chosen.id) ?? (await interaction.guild?.roles.fetch(chosen.id));
		if (!role) throw new JobError(ErrorCodes.RoleNotAssignable, `The role ${chosen.name} is not in this server any more; pick another.`);
		checkAssignable({ id: role.id, name: role.name, position: role.position, managed: role.managed }, context.boss.guildContext());
		await startJob(interaction, context, new RoleAction({ id: role.id, name: role.name }, mode), {
			onlyRoleId: interaction.options.getRole('only_role')?.id,
			excludeRoleId: interaction.options.getRole('exclude_role')?.id,
		});
	},

	async restore(interaction, context) {
		const dryRun = interaction.options.getBoolean('dry_run') ?? false;
		const name = interaction.options.getString('name') ?? undefined;
		const fallback = name === undefined ? undefined : new ClearNicknameAction(parseTemplate(name, { maxLength: context.config.nickname.maxLength }));
		context.jobs.assertIdle();
		await interaction.deferReply();
		const { job, undoes } = await context.jobs.startRestore({
			dryRun,
			fallback,
			noJournalHint: 'To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
			startedBy: requesterOf(interaction),
		});
		const prefix = dryRun ? 'Dry run: planning to undo' : 'Undoing';
		await interaction.editReply(
			undoes
				? `${prefix} the last job: **${undoes.header.title}**, started by ${undoes.header.startedBy.tag} at ${undoes.header.startedAt}. Each member gets back what they had before it; a member who changed it since keeps theirs.`
				: `No journal was found, so the originals cannot be brought back. ${dryRun ? 'Dry run: planning a' : 'Running a'} clear of **${job.target}** wherever it is still set instead.`,
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
		const action = interrupted && context.jobs.actionOf(interrupted.header);
		if (!interrupted || !action) {
			await interaction.editReply('No job has run since the bot started, and no journal shows an unfinished one.');
			return;
		}
		await interaction.editReply(
			`The last job (**${interrupted.header.title}**, started by ${interrupted.header.startedBy.tag} at ${interrupted.header.startedAt}) did not finish. Counting what is left from the live server; run it again with the same target to finish it.`,
		);
		await showLive(interaction, context, context.jobs.count(action, requesterOf(interaction)));
	},

	async stats(interaction, context) {
		await interaction.deferReply();
		const name = interaction.options.getString('name');
		const interrupted = name === null && !context.jobs.last ? await context.jobs.interrupted() : undefined;
		const action: MassAction | undefined =
			name !== null ? nicknameAction(name, context) : (context.jobs.last?.action ?? (interrupted && context.jobs.actionOf(interrupted.header)));
		if (action === undefined) {
			throw new JobError(ErrorCodes.NoJob, 'No job has run yet, so there is nothing to count: give a nickname with `name:`.');
		}
		const job = context.jobs.count(action, requesterOf(interaction));
		// A large guild takes longer to count than an interaction token lives (15 minutes): past a
		// few seconds the answer goes to the channel instead.
		const done = await Promise.race([job.ended().then(() => true), sleep(STATS_WAIT_MS).then(() => false)]);
		if (done) {
			if (job.result?.error) throw job.result.error;
			await interaction.editReply(renderStats(job));
			return;
		}
		await interaction.editReply(`Counting the members with ${action.words.holds} from the live server; the result will be posted in this channel.`);
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
			`Cancelling **${job.title}**: no new request goes out. What was done stays journaled; running it again continues, /restore undoes it.`,
		);
	},
};

/** A nickname action from a command's `name:`; a bad template is refused before anything runs. */
function nicknameAction(name: string, context: BossContext): NicknameAction {
	return new NicknameAction(parseTemplate(name, { maxLength: context.config.nickname.maxLength }));
}

/**
 * Starts a changing job (or its dry run) and posts its live status. A busy guild or workers
 * without the action's permission are refused before anything is acknowledged, so the refusal
 * is private.
 */
async function startJob(
	interaction: ChatInputCommandInteraction,
	context: BossContext,
	action: MassAction,
	filters: { onlyRoleId: string | undefined; excludeRoleId: string | undefined },
): Promise<void> {
	const dryRun = interaction.options.getBoolean('dry_run') ?? false;
	context.jobs.assertIdle();
	context.jobs.assertPermitted(action);
	await interaction.deferReply();
	const job = await context.jobs.startJob(action, { dryRun, startedBy: requesterOf(interaction), filters });
	await interaction.editReply(
		`${dryRun ? 'Dry run: planning' : 'Started'}: **${action.words.doing}** for ${describeScope(interaction)}, with ${context.fleet.size} workers. Live progress below; /cancel stops it.`,
	);
	await showLive(interaction, context, job);
}

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
	const role = interaction.options.getRole(interaction.commandName === 'massrole' ? 'only_role' : 'role');
	const exclude = interaction.options.getRole('exclude_role');
	const parts = [role ? `members with @${role.name}` : 'every member'];
	if (exclude) parts.push(`except those with @${exclude.name}`);
	return parts.join(' ');
}
