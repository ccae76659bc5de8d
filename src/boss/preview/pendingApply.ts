import {
	type GuildContext,
	type GuildCounts,
	type JobEstimate,
	type KeepOptions,
	keepRecord,
	type MassAction,
	type MemberFilters,
	planMember,
	type Range,
} from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import type { PendingJob } from './PendingJob.js';

export interface PendingApplyOptions {
	readonly action: MassAction;
	readonly filters: MemberFilters;
	/** Who it is about, for people: `every member`, `members with @Staff`. */
	readonly scope: string;
	/** The action's figures from Discord's counts (`estimateMemberEdit`, `estimateRoleChange`). */
	readonly estimate: (counts: GuildCounts, ctx: GuildContext) => JobEstimate;
	/** How one planned change reads in the sample: the action's module's words. */
	readonly describeChange: PendingJob['describeChange'];
	/**
	 * The action built again from the command's options, with the guild as it is when the job
	 * starts: a role deleted or moved above the workers since the preview is refused then, before
	 * a single request would earn a 404 or a 403.
	 */
	readonly rebuild?: (() => MassAction) | undefined;
	/** The module's `confirmByTypedCount`: Start asks for the count typed (see `PendingJob`). */
	readonly confirmByTypedCount?: ((members: Range) => boolean) | undefined;
	/** The module's `typedCountWhy`. */
	readonly typedCountWhy?: string | undefined;
	/** A standing rule: it keeps applying to joiners after its sweep (see `KeepOptions`). */
	readonly keep?: KeepOptions | undefined;
}

/** `/massnick`, `/massrole`: an action over the guild, with the engine's filters. */
export function pendingApply(context: BossContext, options: PendingApplyOptions): PendingJob {
	const { action, filters, scope, estimate, describeChange, rebuild, confirmByTypedCount, typedCountWhy, keep } = options;
	return {
		title: keep ? `${action.words.doing}, and keeping to it` : action.words.doing,
		keep,
		scope,
		action,
		jobKind: action.type,
		undo: false,
		filters,
		confirmByTypedCount,
		typedCountWhy,
		listedIds: filters.userIds,
		estimate,
		describeChange,
		planSample: async (members, ctx) => members.map((member) => planMember(member, action, filters, ctx)),
		async start({ dryRun, startedBy, rank, allowed, channelId }) {
			// Who asked, for a restart to resume it; a start by a person clears its resumes.
			const record =
				channelId === undefined
					? undefined
					: { startedBy, rank, startedAt: new Date().toISOString(), resumes: [], ...(keep ? { keep: keepRecord(keep) } : {}) };
			const now = rebuild?.() ?? action;
			const job = await context.jobs.startJob(now, { dryRun, startedBy, rank, allowed, filters, record, keep: dryRun ? undefined : keep });
			// And where: a restart says there that it resumed the job, or why not.
			if (channelId !== undefined && context.jobs.runOf(job)?.recorded) await context.notes.replace(job.id, { channelId });
			const workers = context.fleet.scope.describeHere("the others run elsewhere, each on its own workers' members");
			return {
				job,
				text: job.keep
					? `Started the standing rule **${action.words.doing}** for ${scope}, with ${workers}: it sweeps the server now, then applies to everyone who joins${action.followsChanges ? ' or changes' : ''}${job.keep.until === undefined ? '' : ` until <t:${Math.floor(job.keep.until / 1000)}:f>`}. /cancel rule:${job.id} ends it.`
					: `${dryRun ? 'Dry run: planning' : 'Started'}: **${action.words.doing}** for ${scope}, with ${workers}. Live progress below; /cancel stops it.`,
			};
		},
	};
}
