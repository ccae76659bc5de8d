import type { ClearNicknameAction } from '../actions/nickname/ClearNicknameAction.js';
import type { NicknameAction } from '../actions/nickname/NicknameAction.js';
import { assignableRoleAction } from '../actions/role/assignableRoleAction.js';
import type { Config } from '../config/Config.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Job } from '../jobs/Job.js';
import type { Requester } from '../jobs/JobManager.js';
import { Journal, type JournalSummary } from '../jobs/Journal.js';
import type { MassAction } from '../jobs/MassAction.js';
import type { MemberFilters } from '../jobs/planner.js';
import type { Massnick } from '../startMassnick.js';
import type { RunRequest } from './parseRunArgs.js';

export interface StartRequestedJobOptions {
	massnick: Massnick;
	config: Config;
	request: RunRequest;
	/** Built before connecting, so a bad `--name` is a bad argument (exit 2), not a refusal. */
	nickname?: NicknameAction | undefined;
	fallback?: ClearNicknameAction | undefined;
	startedBy: Requester;
}

export interface StartedJob {
	job: Job;
	/** What starts, for people: the job, who it is for, its journal. */
	headline: string[];
}

/**
 * Checks and starts the job `massnick run` was asked for, as the slash commands do: the same
 * actions, the same refusals (a bad role, workers without the permission, a job already
 * running), through the same {@link JobManager}.
 *
 * Stricter than the commands in one way: a journal with no end line means a job that is running
 * in another massnick right now or whose process died, and the command line cannot tell which.
 * Only the two jobs that settle it may start beside it: the same job again (it finishes it), or
 * a restore (it undoes it).
 *
 * @throws {MassnickError} a refusal, before anything is sent.
 */
export async function startRequestedJob({ massnick, config, request, nickname, fallback, startedBy }: StartRequestedJobOptions): Promise<StartedJob> {
	const guild = massnick.boss.guild;
	const roleName = (id: string): string => (id === guild.id ? '@everyone' : `@${guild.roles.cache.get(id)?.name ?? id}`);
	const { dryRun } = request;

	if (request.job === 'restore') {
		const { job, undoes } = await massnick.jobs.startRestore({
			dryRun,
			fallback,
			noJournalHint: 'To clear a nickname wherever it is still set instead, run massnick run restore --name "<the template>" (the originals cannot be recovered that way).',
			startedBy,
		});
		const prefix = dryRun ? 'Dry run: counting what undoing the last job would change' : 'Undoing the last job';
		const headline = undoes
			? [
					`${prefix}: ${undoes.header.title}, started by ${undoes.header.startedBy.tag} at ${undoes.header.startedAt}.`,
					'Each member gets back what they had before it; a member who changed it since keeps theirs.',
					...(dryRun ? [] : [`journal: ${undoes.path}`]),
				]
			: [`No journal was found, so the originals cannot be brought back. ${dryRun ? 'Dry run: counting a' : 'Running a'} clear of “${job.target}” wherever it is still set instead.`];
		return { job, headline };
	}

	let action: MassAction;
	if (request.job === 'massnick') {
		action = nickname!;
	} else {
		const role = guild.roles.cache.get(request.roleId);
		if (!role) {
			throw new JobError(ErrorCodes.RoleNotAssignable, `--role: there is no role ${request.roleId} in ${guild.name}; copy the id again (Server Settings → Roles → right-click → Copy Role ID).`);
		}
		action = assignableRoleAction({ id: role.id, name: role.name, position: role.position, managed: role.managed }, request.mode, massnick.boss.guildContext());
	}
	const { filters } = request;
	for (const [flag, id] of filterFlags(request)) {
		if (id !== undefined && id !== guild.id && !guild.roles.cache.has(id)) {
			throw new JobError(ErrorCodes.InvalidArgument, `--${flag}: there is no role ${id} in ${guild.name}; copy the id again (Server Settings → Roles → right-click → Copy Role ID).`);
		}
	}

	const journals = dryRun ? [] : await Journal.list(config.dataDir, config.guildId);
	const sameJob = (summary: JournalSummary): boolean => summary.header.action === action.type && summary.header.target === action.target;
	const unfinished = journals.find((summary) => summary.state === 'running');
	if (unfinished && !sameJob(unfinished)) {
		const { header } = unfinished;
		throw new JobError(
			ErrorCodes.JobRunning,
			`Another job has no end in its journal: ${header.title}, started by ${header.startedBy.tag} at ${header.startedAt} (${unfinished.path}). Either a massnick is running it right now (wait for it, or /cancel it), or its process was stopped before it ended: finish it by running it again with the same target, or undo it with massnick run restore. Then run this job.`,
		);
	}
	const continued = journals.find((summary) => summary.state !== 'restored' && sameJob(summary));

	const job = await massnick.jobs.startJob(action, { dryRun, startedBy, filters });
	const headline = [`${dryRun ? 'Dry run: counting' : 'Started'}: ${action.words.doing} for ${scopeOf(filters, roleName)}, with ${massnick.fleet.size} workers.`];
	if (continued) {
		headline.push(
			`The same job ran before (started by ${continued.header.startedBy.tag} at ${continued.header.startedAt}, ${continued.state === 'running' ? 'unfinished' : continued.state}): this run adds to its journal. Members already done are skipped, and a restore still brings back what they had before the first run.`,
		);
	}
	if (!dryRun) headline.push(`journal: ${Journal.pathOf(config.dataDir, config.guildId, job.id)}`);
	return { job, headline };
}

/** The role filters as the command line named them. */
function filterFlags(request: RunRequest & { filters: MemberFilters }): Array<[string, string | undefined]> {
	return [
		[request.job === 'massrole' ? 'only-role' : 'role', request.filters.onlyRoleId],
		['exclude-role', request.filters.excludeRoleId],
	];
}

function scopeOf(filters: MemberFilters, roleName: (id: string) => string): string {
	const parts = [filters.onlyRoleId !== undefined ? `members with ${roleName(filters.onlyRoleId)}` : 'every member'];
	if (filters.excludeRoleId !== undefined) parts.push(`except those with ${roleName(filters.excludeRoleId)}`);
	return parts.join(' ');
}
