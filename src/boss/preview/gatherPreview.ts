import { type Guild, type RESTGetAPIGuildMembersResult, type RESTGetAPIGuildRoleMemberCountsResult, Routes } from 'discord.js';
import { expandAuditLogReason, withRequesterReason } from '../../config/index.js';
import { toMemberRecord } from '../../discord/toMemberRecord.js';
import {
	ABOVE_REQUESTER,
	changesPerSecond,
	estimateShareMs,
	forRequester,
	type GuildContext,
	type GuildCounts,
	listingBounds,
	nonMemberHandling,
	type Plan,
	type Requester,
	type RequesterRank,
} from '../../jobs/index.js';
import type { BossContext } from '../BossContext.js';
import { countExactly } from './countExactly.js';
import type { MemberRecord } from '../../discord/MemberRecord.js';
import { lookUpListed } from './lookUpListed.js';
import type { PendingJob } from './PendingJob.js';
import { unknownWorkersNote } from '../status/renderJob.js';
import type { PreviewFacts, PreviewSample } from './renderPreview.js';

/** Members listed for the sample: one page, one request. */
export const SAMPLE_PAGE_SIZE = 100;
/** Planned changes the preview shows. */
export const SAMPLE_SHOWN = 5;

/**
 * Everything a preview shows, without changing anything and without listing the guild: the
 * guild's member count from the boss's cache (kept current by member events), Discord's role
 * member counts (one request), and the first page of members (one request) planned by the job's
 * own planner.
 *
 * @see https://discord.com/developers/docs/resources/guild#get-guild-role-member-counts
 * @see https://discord.com/developers/docs/resources/guild#list-guild-members
 */
export async function gatherPreview(context: BossContext, pending: PendingJob, requester: Requester, rank: RequesterRank): Promise<PreviewFacts> {
	const guild = context.boss.guild;
	// Planned and estimated within the requester's reach, as the job will run.
	const ctx = forRequester(context.boss.guildContext(), rank);
	const rest = context.boss.client.rest;
	const [roleMembers, sample] = await Promise.all([
		(rest.get(Routes.guildRoleMemberCounts(guild.id)) as Promise<RESTGetAPIGuildRoleMemberCountsResult>).catch((error: unknown) => {
			context.logger.warn({ err: error }, 'could not read the role member counts for the preview');
			return error as Error;
		}),
		readSample(context, guild, pending, ctx),
	]);
	// Without the role counts nothing can be estimated honestly: the preview says the run counts.
	const counted = !(roleMembers instanceof Error);
	const counts: GuildCounts = { members: guild.memberCount, roleMembers: counted ? roleMembers : {}, ourBots: context.boss.ourBotRoles() };
	const estimated = counted ? pending.estimate(counts, ctx) : {};
	const exact = await countExactly(context, pending, requester, rank, estimated);
	const estimate = exact?.estimate ?? estimated;
	const { fleet } = context;
	const workers = fleet.active.length;
	const perWorker = changesPerSecond(pending.action, pending.undo);
	return {
		title: pending.title,
		scope: pending.scope,
		undoes: pending.undoes,
		guildMembers: counts.members,
		estimate,
		countsNote: exact
			? 'Counted exactly: every member of the server was listed and planned as the job will plan them. Members who join or leave before Start change what it does.'
			: counted
				? unknownWorkersNote({ workers: context.boss.unknownWorkers, reachKnown: Number.isFinite(ctx.workerHighestPosition) })
				: `Discord's role member counts could not be read (${roleMembers.message}), so the job counts as it runs.`,
		irreversible: pending.undo ? undefined : pending.action.irreversible,
		keep: pending.keep && { changes: pending.action.followsChanges === true, until: pending.keep.until },
		typedCount: exact?.typedCount,
		typedCountWhy: exact?.typedCount === undefined ? undefined : pending.typedCountWhy,
		sample,
		// The job's id is given when it starts; the rest of the reason is what its requests carry.
		reason: withRequesterReason(
			expandAuditLogReason(context.config.auditLogReason, {
				jobKind: pending.jobKind,
				jobId: '(given at start)',
				user: requester.tag,
				userId: requester.id,
			}),
			pending.undo ? undefined : pending.action.reason,
		),
		workers,
		workerCount: fleet.count,
		heldIds: fleet.ids,
		durationMs: estimate.change ? estimateShareMs(estimate.change.atMost, { active: workers, held: fleet.size, count: fleet.count }, perWorker) : null,
		perSecond: workers * perWorker,
	};
}

/**
 * The first page of members the job will list, planned (from the first account its `created_after`
 * can select); a listing that fails leaves the preview without a sample.
 * A job limited to a file of ids plans its first listed ids instead, looked up (see `lookUpListed`).
 */
async function readSample(context: BossContext, guild: Guild, pending: PendingJob, ctx: GuildContext): Promise<PreviewSample> {
	const empty = { planned: 0, tally: { change: 0, done: 0, cant: 0, aboveRequester: 0, skip: 0 }, changes: [] };
	if (pending.listedIds) {
		const total = pending.listedIds.length;
		try {
			const { looked, members } = await lookUpListed(guild, pending.listedIds);
			const handling = nonMemberHandling(pending.action, pending.undo ? 'restore' : 'apply', pending.filters ?? {}, guild.id);
			const nonMembers = { handling, changed: pending.action.words.changed };
			return { ...(await planned(pending, guild, members, ctx)), listed: { looked, total, nonMembers } };
		} catch (error) {
			context.logger.warn({ err: error }, 'could not look the listed ids up for the preview');
			return { ...empty, note: `No sample: the listed ids could not be looked up (${(error as Error).message}). The job counts them as it runs.` };
		}
	}
	// Where the job's listing starts: a raid cleanup aimed by account age shows the new accounts.
	const { after } = pending.undo ? {} : listingBounds(pending.filters);
	let page: RESTGetAPIGuildMembersResult;
	try {
		page = (await context.boss.client.rest.get(Routes.guildMembers(guild.id), {
			query: new URLSearchParams({ limit: String(SAMPLE_PAGE_SIZE), ...(after === undefined ? {} : { after }) }),
		})) as RESTGetAPIGuildMembersResult;
	} catch (error) {
		context.logger.warn({ err: error }, 'could not list a sample of members for the preview');
		return { ...empty, note: `No sample: the first members could not be listed (${(error as Error).message}).` };
	}
	return planned(pending, guild, page.map(toMemberRecord), ctx);
}

/** `members` planned by the job's own planner: the tally and the first few changes. */
async function planned(pending: PendingJob, guild: Guild, members: readonly MemberRecord[], ctx: GuildContext): Promise<PreviewSample> {
	const plans = await pending.planSample(members, ctx);
	const tally = { change: 0, done: 0, cant: 0, aboveRequester: 0, skip: 0 };
	const changes: string[] = [];
	const roleNames = (id: string): string => guild.roles.cache.get(id)?.name ?? `deleted-role-${id}`;
	plans.forEach((plan: Plan, index) => {
		if (plan.action === 'cant' && plan.reason === ABOVE_REQUESTER) tally.aboveRequester++;
		else tally[plan.action]++;
		if (plan.action === 'change' && changes.length < SAMPLE_SHOWN) changes.push(pending.describeChange(members[index]!, plan.from, plan.to, roleNames));
	});
	return { planned: members.length, tally, changes };
}
