import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { BossContext } from '../BossContext.js';
import { forRequester } from '../../jobs/GuildContext.js';
import { gatherPreview } from './gatherPreview.js';
import type { PendingJob } from './PendingJob.js';
import { Preview } from './Preview.js';
import { requesterOf } from '../requesterOf.js';
import { readRequesterRank } from '../readRequesterRank.js';
import { showLive } from '../status/showLive.js';

/**
 * Runs a changing command (`/massnick`, `/massrole`, `/restore`). A dry run, or any job in a guild
 * smaller than `preview.skipBelowMembers`, starts at once as it always has. Any other job first
 * shows its member a private preview of what will happen, and nothing is sent to Discord's member
 * routes until they press Start (see `pressPreview.ts`).
 *
 * A busy guild, or a boss whose workers all run elsewhere, is refused before anything is
 * acknowledged, so the refusal is private. A job that hands out what is out of its member's reach
 * (a role at or above their highest role) is refused before its preview; its members are planned
 * within that reach, and the rank is read again when Start is pressed.
 * `prepare` builds the job once the interaction is acknowledged (it may read the journals);
 * `permission` is the command's, checked again when Start is pressed.
 */
export async function startOrPreview(
	interaction: ChatInputCommandInteraction,
	context: BossContext,
	permission: bigint,
	prepare: () => PendingJob | Promise<PendingJob>,
): Promise<void> {
	const dryRun = interaction.options.getBoolean('dry_run') ?? false;
	const { fleet } = context;
	if (fleet.size === 0) {
		// Nothing to preview or start here: without this, a /restore would answer that no journal is
		// left (the workers' journals are theirs, in their processes).
		throw new JobError(
			ErrorCodes.NoWorkers,
			`This massnick holds none of the ${fleet.count} workers (WORKER_IDS=none): they run in other processes, so a changing job runs there (massnick run, or the fleet's Kubernetes Job). /status, /stats and /shards still answer from here.`,
		);
	}
	context.jobs.assertIdle();
	const rank = readRequesterRank(interaction, context.boss.guild);
	const withinRank = (pending: PendingJob): PendingJob => {
		pending.action.checkRequester?.(forRequester(context.boss.guildContext(), rank), pending.undo);
		return pending;
	};
	if (dryRun || context.boss.guild.memberCount < context.config.preview.skipBelowMembers) {
		await interaction.deferReply();
		const pending = withinRank(await prepare());
		const { job, text } = await pending.start({ dryRun, startedBy: requesterOf(interaction), rank, channelId: interaction.channelId });
		await interaction.editReply(text);
		await showLive(interaction, context, job);
		return;
	}
	// Counting and sampling take a few requests: acknowledge first (Discord allows 3 s), privately.
	await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const pending = withinRank(await prepare());
	const facts = await gatherPreview(context, pending, requesterOf(interaction), rank);
	const preview = new Preview({
		id: interaction.id,
		userId: interaction.user.id,
		permission,
		pending,
		facts,
		edit: (message) => interaction.editReply(message),
		logger: context.logger,
	});
	const expiresAt = context.previews.open(preview);
	if (!(await preview.show({ state: 'open', previewId: preview.id, expiresAt }))) {
		context.previews.take(preview.id, preview.userId, 'cancelled');
		throw new Error('the preview could not be shown');
	}
}
