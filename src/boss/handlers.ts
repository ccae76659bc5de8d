import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { parseClearNicknameAction } from '../actions/nickname/parseClearNicknameAction.js';
import { parseNicknameAction } from '../actions/nickname/parseNicknameAction.js';
import { assignableRoleAction } from '../actions/role/assignableRoleAction.js';
import { ErrorCodes, JobError } from '../errors.js';
import { forRequester } from '../jobs/GuildContext.js';
import { sleep } from '../util/sleep.js';
import type { BossContext } from './BossContext.js';
import { cancelJob, cancellingText } from './cancelJob.js';
import type { CommandName } from './commands.js';
import { estimateRename, estimateRoleChange } from './estimateJob.js';
import { type CountTarget, countTargetOf, showFleetStatus } from './fleetStatus.js';
import { pendingApply } from './pendingApply.js';
import { pendingRestore } from './pendingRestore.js';
import { renderJobMessage, renderShards, renderStats, unknownWorkersOf } from './renderJob.js';
import { requesterOf } from './requesterOf.js';
import { requesterRank } from './requesterRank.js';
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
		const ctx = context.boss.guildContext();
		const action = assignableRoleAction({ id: role.id, name: role.name, position: role.position, managed: role.managed }, mode, ctx);
		// Refused here, before anything is acknowledged, so only its member sees it.
		action.checkRequester(forRequester(ctx, requesterRank(interaction, context.boss.guild)), false);
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
		// Workers in other processes: the fleet's journals say what runs, the live guild how far.
		if (!context.fleet.holdsAll && (await showFleetStatus(interaction, context))) return;
		if (job) {
			await interaction.reply(renderJobMessage(job));
			return;
		}
		// Reading the journals touches the disk: acknowledge first (Discord allows 3 s).
		await interaction.deferReply();
		const interrupted = await context.jobs.interrupted();
		if (!interrupted || !context.jobs.actionOf(interrupted.header)) {
			await interaction.editReply(`No job has run since the bot started, and no journal shows an unfinished one.${fleetHint(context)}`);
			return;
		}
		await interaction.editReply(
			`The last job (**${interrupted.header.title}**, started by ${interrupted.header.startedBy.tag} at ${interrupted.header.startedAt}) did not finish. Counting what is left from the live server; run it again with the same target to finish it.`,
		);
		const { action, filters } = countTargetOf(interrupted.header, context);
		await showLive(interaction, context, context.jobs.count(action, requesterOf(interaction), filters));
	},

	async stats(interaction, context) {
		await interaction.deferReply();
		const name = interaction.options.getString('name');
		const target = name !== null ? { action: parseNicknameAction(name, context.config.nickname.maxLength), filters: {} } : await lastJobTarget(context);
		if (target === undefined) {
			throw new JobError(ErrorCodes.NoJob, `No job has run yet, so there is nothing to count: give a nickname with \`name:\`.${fleetHint(context)}`);
		}
		const { action, filters } = target;
		const job = context.jobs.count(action, requesterOf(interaction), filters);
		// A large guild takes longer to count than an interaction token lives (15 minutes): past a
		// few seconds the answer goes to the channel instead.
		const done = await Promise.race([job.ended().then(() => true), sleep(STATS_WAIT_MS).then(() => false)]);
		if (done) {
			if (job.result?.error) throw job.result.error;
			await interaction.editReply(renderStats(job, unknownWorkersOf(context)));
			return;
		}
		await interaction.editReply(`Counting the members with ${action.words.holds} from the live server; the result will be posted in this channel.`);
		await job.ended();
		const channel = await channelOf(interaction);
		await channel?.send(job.result?.error ? `Counting failed: ${job.result.error.message}` : renderStats(job, unknownWorkersOf(context)));
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

/**
 * What /stats counts without `name:`: the last job of this process, else the fleet's newest job
 * not undone (its journals in FLEET_JOURNALS_DIR), else the newest unfinished journal here.
 */
async function lastJobTarget(context: BossContext): Promise<CountTarget | undefined> {
	const last = context.jobs.last;
	if (last) return { action: last.action, filters: last.filters };
	const fleetJob = context.fleet.holdsAll ? undefined : (await context.jobs.fleetJobs())?.find((job) => job.state !== 'restored');
	if (fleetJob) return countTargetOf(fleetJob.header, context);
	const interrupted = await context.jobs.interrupted();
	return interrupted && countTargetOf(interrupted.header, context);
}

/** For a boss whose workers run elsewhere without FLEET_JOURNALS_DIR: how it could follow their jobs. */
function fleetHint(context: BossContext): string {
	if (context.fleet.holdsAll || context.config.fleetJournalsDir !== undefined) return '';
	return " The workers run in other processes, and this boss cannot see their jobs: set FLEET_JOURNALS_DIR to where their data folders are (the fleet's journal volume, mounted read-only) and /status follows them; /stats with `name:` counts a nickname meanwhile.";
}

function describeScope(interaction: ChatInputCommandInteraction): string {
	const role = interaction.options.getRole(interaction.commandName === 'massrole' ? 'only_role' : 'role');
	const exclude = interaction.options.getRole('exclude_role');
	const parts = [role ? `members with @${role.name}` : 'every member'];
	if (exclude) parts.push(`except those with @${exclude.name}`);
	return parts.join(' ');
}
