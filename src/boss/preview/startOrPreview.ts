import { type ChatInputCommandInteraction, MessageFlags } from 'discord.js';
import type { BossContext } from '../BossContext.js';
import { gatherPreview } from './gatherPreview.js';
import type { PendingJob } from './PendingJob.js';
import { Preview } from './Preview.js';
import { allowedFor } from '../isAllowed.js';
import { requesterOf } from '../requesterOf.js';
import { readRequesterRank } from '../readRequesterRank.js';
import { showLive } from '../status/showLive.js';

/** How a changing command is let through (see `Admission`). */
export interface CommandAdmission {
	/**
	 * The command's permission, checked again when Start is pressed; by default the job's action's
	 * (a /restore's is that of the job it undoes: Ban Members and Manage Guild to unban).
	 */
	readonly permission?: bigint | undefined;
	/**
	 * The command admitted its action already, before calling (an action command knows its action
	 * from its options). Otherwise the admission's checks that need no action run before anything
	 * is acknowledged, and the rest once `prepare` has built the job (a /restore reads its journal).
	 */
	readonly admitted?: boolean | undefined;
	/**
	 * Preview it even in a guild below `preview.skipBelowMembers`: a job whose count may be typed
	 * before it runs (a kick; a ban, in a guild of more than 100 members).
	 */
	readonly alwaysPreview?: boolean | undefined;
}

/**
 * Runs a changing command (`/massnick`, `/massrole`, `/restore`). A dry run, or any job in a guild
 * smaller than `preview.skipBelowMembers`, starts at once as it always has. Any other job first
 * shows its member a private preview of what will happen, and nothing is sent to Discord's member
 * routes until they press Start (see `pressPreview.ts`).
 *
 * The command is admitted once here (a busy guild, no workers here, a member who may not, a role
 * out of their reach), privately where it can be before anything is acknowledged; the job is
 * admitted again when it starts, with the member's roles as they are then.
 * `prepare` builds the job once the interaction is acknowledged (it may read the journals).
 */
export async function startOrPreview(
	interaction: ChatInputCommandInteraction,
	context: BossContext,
	{ permission, admitted = false, alwaysPreview = false }: CommandAdmission,
	prepare: () => PendingJob | Promise<PendingJob>,
): Promise<void> {
	const dryRun = interaction.options.getBoolean('dry_run') ?? false;
	const { admission } = context.jobs;
	if (!admitted) admission.admitWithoutAction();
	const rank = readRequesterRank(interaction, context.boss.guild);
	const allowed = allowedFor(interaction, context.config.permissions);
	const ready = async (): Promise<PendingJob> => {
		const pending = await prepare();
		if (!admitted) admission.admitAction({ action: pending.action, undo: pending.undo, rank, allowed });
		return pending;
	};
	// A job that may ask for its count typed (a kick; a ban, in a guild past 100) skips no preview.
	const small = context.boss.guild.memberCount < context.config.preview.skipBelowMembers && !alwaysPreview;
	// A command that had to download a file acknowledged itself already, privately.
	const acknowledged = interaction.deferred;
	if (dryRun || small) {
		if (!acknowledged) await interaction.deferReply();
		const pending = await ready();
		const { job, text } = await pending.start({ dryRun, startedBy: requesterOf(interaction), rank, allowed, channelId: interaction.channelId });
		await interaction.editReply(text);
		await showLive(interaction, context, job);
		return;
	}
	// Counting and sampling take a few requests: acknowledge first (Discord allows 3 s), privately.
	if (!acknowledged) await interaction.deferReply({ flags: MessageFlags.Ephemeral });
	const pending = await ready();
	const facts = await gatherPreview(context, pending, requesterOf(interaction), rank);
	const preview = new Preview({
		id: interaction.id,
		userId: interaction.user.id,
		permission: permission ?? pending.action.permission,
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
