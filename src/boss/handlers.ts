import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { parseClearNicknameAction } from '../actions/nickname/parseClearNicknameAction.js';
import { parseNicknameAction } from '../actions/nickname/parseNicknameAction.js';
import { assignableRoleAction } from '../actions/role/assignableRoleAction.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { MassAction } from '../jobs/MassAction.js';
import type { BossContext } from './BossContext.js';
import { cancelJob, cancellingText } from './cancelJob.js';
import type { CommandName } from './commands.js';
import { estimateRename, estimateRoleChange } from './estimateJob.js';
import { pendingApply } from './pendingApply.js';
import { pendingRestore } from './pendingRestore.js';
import { requesterOf } from './requesterOf.js';
import { sleep } from '../util/sleep.js';
import { renderJobMessage, renderShards, renderStats, type UnknownWorkers } from './renderJob.js';
import { channelOf, showLive } from './showLive.js';
import { startOrPreview } from './startOrPreview.js';

/** How long /stats waits to answer in place before it posts the count in the channel. */
const STATS_WAIT_MS = 10_000;

type Handler = (interaction: ChatInputCommandInteraction, context: BossContext) => Promise<void>;

/** The handler of each command in `commands.ts`, by name. */
export const handlers: Record<CommandName, Handler> = {
	async massnick(interaction, context) {
		const name = interaction.options.getString('name', true);
		const action = parseNicknameAction(name, context.config.nickname.maxLength);
		const filters = { onlyRoleId: interaction.options.getRole('role')?.id, excludeRoleId: interaction.options.getRole('exclude_role')?.id };
		context.jobs.assertPermitted(action);
		await startOrPreview(interaction, context, () =>
			pendingApply(context, { action, filters, scope: describeScope(interaction), estimate: (counts, ctx) => estimateRename(counts, ctx, filters) }),
		);
	},

	async massrole(interaction, context) {
		const mode = interaction.options.getSubcommand(true) === 'remove' ? 'remove' : 'add';
		const chosen = interaction.options.getRole('role', true);
		// The boss's cache has every role with its position and whether an integration manages it.
		const role = interaction.guild?.roles.cache.get(chosen.id) ?? (await interaction.guild?.roles.fetch(chosen.id));
		if (!role) throw new JobError(ErrorCodes.RoleNotAssignable, `The role ${chosen.name} is not in this server any more; pick another.`);
		const action = assignableRoleAction({ id: role.id, name: role.name, position: role.position, managed: role.managed }, mode, context.boss.guildContext());
		const filters = { onlyRoleId: interaction.options.getRole('only_role')?.id, excludeRoleId: interaction.options.getRole('exclude_role')?.id };
		context.jobs.assertPermitted(action);
		await startOrPreview(interaction, context, () =>
			pendingApply(context, { action, filters, scope: describeScope(interaction), estimate: (counts, ctx) => estimateRoleChange(counts, ctx, filters, role.id, mode) }),
		);
	},

	async restore(interaction, context) {
		const name = interaction.options.getString('name') ?? undefined;
		const fallback = name === undefined ? undefined : parseClearNicknameAction(name, context.config.nickname.maxLength);
		await startOrPreview(interaction, context, () =>
			pendingRestore(context, {
				fallback,
				noJournalHint: 'To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
			}),
		);
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
			name !== null ? parseNicknameAction(name, context.config.nickname.maxLength) : (context.jobs.last?.action ?? (interrupted && context.jobs.actionOf(interrupted.header)));
		if (action === undefined) {
			throw new JobError(ErrorCodes.NoJob, 'No job has run yet, so there is nothing to count: give a nickname with `name:`.');
		}
		const job = context.jobs.count(action, requesterOf(interaction));
		// A large guild takes longer to count than an interaction token lives (15 minutes): past a
		// few seconds the answer goes to the channel instead.
		const done = await Promise.race([job.ended().then(() => true), sleep(STATS_WAIT_MS).then(() => false)]);
		if (done) {
			if (job.result?.error) throw job.result.error;
			await interaction.editReply(renderStats(job, unknownOf(context)));
			return;
		}
		await interaction.editReply(`Counting the members with ${action.words.holds} from the live server; the result will be posted in this channel.`);
		await job.ended();
		const channel = await channelOf(interaction);
		await channel?.send(job.result?.error ? `Counting failed: ${job.result.error.message}` : renderStats(job, unknownOf(context)));
	},

	async shards(interaction, context) {
		await interaction.reply(renderShards(context.fleet, context.boss.client.ws.ping, context.jobs.last?.progress.snapshot().workers));
	},

	async cancel(interaction, context) {
		const job = cancelJob(context);
		if (!job) {
			await interaction.reply({ content: 'No job is running.', flags: MessageFlags.Ephemeral });
			return;
		}
		await interaction.reply(cancellingText(job));
	},
};

/** The workers the boss could not place in a count (see `unknownWorkersNote`). */
function unknownOf(context: BossContext): UnknownWorkers {
	return { workers: context.boss.unknownWorkers, reachKnown: Number.isFinite(context.boss.guildContext().workerHighestPosition) };
}

function describeScope(interaction: ChatInputCommandInteraction): string {
	const role = interaction.options.getRole(interaction.commandName === 'massrole' ? 'only_role' : 'role');
	const exclude = interaction.options.getRole('exclude_role');
	const parts = [role ? `members with @${role.name}` : 'every member'];
	if (exclude) parts.push(`except those with @${exclude.name}`);
	return parts.join(' ');
}
