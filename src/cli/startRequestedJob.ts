import { EXCLUDE_ROLE_OPTION, ONLY_ROLE_OPTION, readKeep } from '../actions/index.js';
import { describeFilters, type Job, type JobJournalSummary, type MassAction, type MemberFilters, OPERATOR, type Requester } from '../jobs/index.js';
import { checkConfirmCount } from './checkConfirmCount.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { RunningMassnick } from './RunningMassnick.js';
import { argsOfRequest, cliOptionName, type RunRequest } from './parseRunArgs.js';
import { readRunFilters } from './readRunFilters.js';

export interface StartRequestedJobOptions {
	massnick: RunningMassnick;
	request: RunRequest;
	/** `run restore --name`: built before connecting, so a bad one is a bad argument (exit 2), not a refusal. */
	fallback?: MassAction | undefined;
	/** An action's filters, read before connecting for the same reason (see `readFilters`). */
	filters?: MemberFilters | undefined;
	startedBy: Requester;
}

export interface StartedJob {
	job: Job;
	/** What starts, for people: the job, who it is for, its journal. */
	headline: string[];
}

/**
 * Checks and starts the job `massnick run` was asked for, as the slash commands do: the same
 * action modules, the same refusals (a bad role, workers without the permission, a job already
 * running), through the same {@link JobManager}. A process holding only some of the workers
 * starts their part of the job, and sees only their journal files.
 *
 * The person at the machine holds the bots' tokens, so a job from here has the bots' rank (see
 * {@link OPERATOR}), where a command's is bounded by its member's.
 *
 * Stricter than the commands in one way: a journal with no end line means a job that is running
 * in another massnick right now or whose process died, and the command line cannot tell which.
 * Only the two jobs that settle it may start beside it: the same job again (it finishes it), or
 * a restore (it undoes it).
 *
 * @throws {MassnickError} a refusal, before anything is sent.
 */
export async function startRequestedJob({ massnick, request, fallback, filters: given, startedBy }: StartRequestedJobOptions): Promise<StartedJob> {
	const guild = massnick.guild;
	const roleName = (id: string): string => (id === guild.id ? '@everyone' : `@${guild.roles.cache.get(id)?.name ?? id}`);
	const { dryRun } = request;

	if (request.kind === 'restore') {
		const { job, undoes } = await massnick.jobs.startRestore({
			dryRun,
			fallback,
			noJournalHint:
				'To clear a nickname wherever it is still set instead, run massnick run restore --name "<the template>" (the originals cannot be recovered that way).',
			pastIrreversible: request.pastIrreversible,
			pastIrreversibleHint: 'run massnick run restore --skip-irreversible',
			startedBy,
			rank: OPERATOR,
		});
		const prefix = dryRun ? 'Dry run: counting what undoing the last job would change' : 'Undoing the last job';
		const headline = undoes
			? [
					`${prefix}: ${undoes.header.title}, started by ${undoes.header.startedBy.tag} at ${undoes.header.startedAt}.`,
					'Each member gets back what they had before it; a member who changed it since keeps theirs.',
				]
			: [
					`No journal was found, so the originals cannot be brought back. ${dryRun ? 'Dry run: counting a' : 'Running a'} clear of “${job.target}” wherever it is still set instead.`,
				];
		headline.push(...massnick.fleet.scope.leftToOthers());
		// A dry run reads the journal without marking it.
		if (!dryRun) headline.push(...journalLine(massnick.jobs.runOf(job)?.journalPaths ?? []));
		return { job, headline };
	}

	const args = argsOfRequest(request);
	const { action } = request.module.request(args, massnick.actionDeps);
	let filters = given ?? (await readRunFilters(request));
	const keep = readKeep(args, { now: Date.now(), optionName: cliOptionName });
	// A rule keeps its durations as typed, to read them anew (the filters' mistakes are named first).
	if (keep && !given) filters = await readRunFilters(request, { rule: true });
	for (const [option, id] of [
		[request.module.onlyRoleOption ?? ONLY_ROLE_OPTION, filters.onlyRoleId],
		[EXCLUDE_ROLE_OPTION, filters.excludeRoleId],
	] as const) {
		if (id !== undefined && id !== guild.id && !guild.roles.cache.has(id)) {
			throw new JobError(
				ErrorCodes.InvalidArgument,
				`--${option.replaceAll('_', '-')}: there is no role ${id} in ${guild.name}; copy the id again (Server Settings → Roles → right-click → Copy Role ID).`,
				{
					context: { option, roleId: id },
				},
			);
		}
	}

	const journals = dryRun ? [] : await massnick.jobs.journals.list();
	const sameJob = (summary: JobJournalSummary): boolean => summary.header.action === action.type && summary.header.target === action.target;
	const unfinished = journals.find((summary) => summary.state === 'running');
	if (unfinished && !sameJob(unfinished)) {
		const { header } = unfinished;
		throw new JobError(
			ErrorCodes.JobRunning,
			`Another job has no end in its journal: ${header.title}, started by ${header.startedBy.tag} at ${header.startedAt} (${unfinished.files.map((file) => file.path).join(', ')}). Either a massnick is running it right now (wait for it, or cancel it there), or its process was stopped before it ended: finish it by running it again with the same target, or undo it with massnick run restore. Then run this job.`,
		);
	}
	const continued = journals.find((summary) => summary.state !== 'restored' && sameJob(summary));
	if (!dryRun) await checkConfirmCount({ massnick, request, action, filters, startedBy });

	const job = await massnick.jobs.startJob(action, { dryRun, startedBy, rank: OPERATOR, filters, keep });
	const { fleet } = massnick;
	const headline = [
		`${dryRun ? 'Dry run: counting' : keep ? 'Started the standing rule' : 'Started'}: ${action.words.doing} for ${describeFilters(filters, roleName)}${fleet.scope.withWorkers()}.`,
	];
	if (keep) {
		const until = keep.until === undefined ? 'until this process is stopped (Ctrl-C, SIGTERM)' : `until ${new Date(keep.until).toISOString()}`;
		headline.push(`After its sweep it applies to everyone who joins${action.followsChanges ? ' or changes' : ''}, ${until}.`);
	}
	headline.push(...fleet.scope.leftToOthers());
	if (continued) {
		headline.push(
			`The same job ran before (started by ${continued.header.startedBy.tag} at ${continued.header.startedAt}, ${continued.state === 'running' ? 'unfinished' : continued.state}): this run adds to its journal. Members already done are skipped, and a restore still brings back what they had before the first run.`,
		);
	}
	headline.push(...journalLine(massnick.jobs.runOf(job)?.journalPaths ?? []));
	return { job, headline };
}

/** Where the job's originals are journaled: one file, or one per worker held. */
function journalLine(paths: readonly string[]): string[] {
	if (paths.length === 0) return [];
	return [`${paths.length === 1 ? 'journal' : 'journals'}: ${paths.join(', ')}`];
}
