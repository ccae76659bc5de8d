import type { Guild } from 'discord.js';
import type { Logger } from 'pino';
import { actionOf, type ActionDeps } from './actions/index.js';
import { Boss } from './boss/Boss.js';
import { logUnresumed } from './boss/resume/logUnresumed.js';
import type { DecideResume } from './boss/resume/resumeAfterRestart.js';
import type { Config } from './config/index.js';
import { openRestLister, type RestLister } from './discord/openRestLister.js';
import { ConfigError, ErrorCodes, JobError } from './errors.js';
import {
	decideResume,
	deleteRestoredJournals,
	fleetGuildContext,
	type GuildContext,
	isIrreversible,
	type Job,
	JobManager,
	journalName,
	type ListingClient,
	readResumeInput,
} from './jobs/index.js';
import { ListingSlots } from './discord/ListingSlots.js';
import { Fleet } from './workers/Fleet.js';

/** A running massnick: the boss (unless started without), its workers and the jobs they share. */
export interface Massnick<B extends Boss | undefined = Boss> {
	readonly boss: B;
	readonly fleet: Fleet;
	readonly jobs: JobManager;
	/** The guild, from the boss's cache, or a held worker's when there is no boss. */
	readonly guild: Guild;
	/** The guild as the planner sees it now (the boss's view, or the workers' without one). */
	guildContext(): GuildContext;
	/** What the action modules build an action from: the guild's roles, the settings. */
	readonly actionDeps: ActionDeps;
	/**
	 * The bots that may list members now: the boss, the `LISTER_TOKEN` bot, and any held worker
	 * whose application has the intent.
	 */
	listers(): ListingClient[];
	/**
	 * Resumes the job (or /restore) a restart interrupted, as `decideResume` decides (`massnick
	 * start` calls it once everything is up): only with `jobs.resumeOnStart`, a boss, and every
	 * worker held here, for a job a slash command started; anything else resumes nothing and logs
	 * why. Resolves once it has started (or not).
	 *
	 * @returns the resumed job, or `undefined`.
	 */
	resume(): Promise<Job | undefined>;
	/**
	 * Cancels the running job, lets requests on the wire finish, closes the journal (`stopped`: the
	 * next start resumes it), logs out.
	 */
	stop(): Promise<void>;
}

export interface StartMassnickOptions {
	/**
	 * Start the boss: slash commands, the listing, and member joins and leaves carried to the
	 * running job. Default true. `false` for a process of a fleet split over several (a
	 * Kubernetes pod running `massnick run`), which needs no `BOSS_TOKEN` and must not answer the
	 * guild's commands a second time: it lists with `LISTER_TOKEN` and its workers whose
	 * application has the Server Members intent.
	 */
	boss?: boolean;
	/**
	 * Stops a start that is waiting out Discord (5xx answers, time-outs): `massnick run` aborts it
	 * on SIGINT or SIGTERM. The start then throws `StartAborted`.
	 */
	signal?: AbortSignal;
	/** Told of every job before it runs (see `JobManagerOptions.observeJobs`): what the metrics count. */
	observeJobs?: ((job: Job) => void) | undefined;
}

/**
 * Starts the boss and this process's workers, registers the commands, and wires them to the jobs.
 * Every start problem is reported (a rejected token is named by its place, never shown).
 *
 * @throws {ConfigError} without a boss token when the boss is to start.
 * @throws {JobError} `MEMBERS_INTENT_DISABLED` when no bot of this process may list members.
 */
export function startMassnick(config: Config, logger: Logger, options?: StartMassnickOptions & { boss?: true }): Promise<Massnick>;
export function startMassnick(config: Config, logger: Logger, options: StartMassnickOptions): Promise<Massnick<Boss | undefined>>;
export async function startMassnick(config: Config, logger: Logger, options: StartMassnickOptions = {}): Promise<Massnick<Boss | undefined>> {
	const withBoss = options.boss ?? true;
	if (withBoss && config.bossToken === '') {
		throw new ConfigError([{ key: 'BOSS_TOKEN', message: "missing; the boss starts here (massnick start), so set it to the boss bot's token" }]);
	}
	if (!withBoss && config.heldWorkers.length === 0) {
		throw new ConfigError([
			{ key: 'WORKER_IDS', message: 'none, and no boss starts here: this process would have nothing to do; give it the workers it holds' },
		]);
	}
	const boss = withBoss ? new Boss(config, logger.child({ component: 'boss' })) : undefined;
	const client = { apiUrl: config.apiUrl, restOffsetMs: config.rest.offsetMs, restTimeoutMs: config.rest.timeoutMs };
	const fleet = new Fleet({
		count: config.workerCount,
		workers: config.heldWorkers,
		guildId: config.guildId,
		client: { ...client, restRetries: 0 },
		logger: logger.child({ component: 'fleet' }),
		invalidRequestBudget: config.safety.invalidRequestBudget,
		startRetry: config.workers.retry,
		paceSharedLimit: config.workers.paceSharedLimit,
	});
	// With the boss running, its own token lists already: the same token twice would only share
	// one allowance and earn 429s.
	const listerToken = config.listerToken !== '' && !(boss && config.listerToken === config.bossToken) ? config.listerToken : undefined;
	let lister: RestLister | undefined;
	const { signal } = options;
	const started = await Promise.allSettled([
		boss?.start(signal),
		fleet.start(signal),
		listerToken &&
			openRestLister({ token: listerToken, label: 'LISTER_TOKEN', ...client, patience: { logger, retry: config.workers.retry, signal } }).then(
				(opened) => (lister = opened),
			),
	]);
	const stopAll = () => Promise.allSettled([boss?.stop(), fleet.stop()]);
	const failures = started.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
	if (failures.length > 0) {
		await stopAll();
		if (failures.length === 1) throw failures[0];
		throw new AggregateError(failures, failures.map((failure) => failure.message).join('\n'));
	}
	// Every pod of a fleet may list with the one LISTER_TOKEN: each takes only its workers' turns
	// of that token's allowance, so together they never ask it for more than it gives.
	const slots =
		lister && config.heldWorkers.length > 0
			? new ListingSlots({ heldWorkers: config.heldWorkers.map((worker) => worker.id), workerCount: config.workerCount })
			: undefined;
	if (lister && slots) slots.watch(lister.rest);
	// The boss has the Server Members intent (it could not log in otherwise), and so has the
	// LISTER_TOKEN bot (checked at start); a worker whose application has it too lists alongside,
	// which only makes the listing faster. Each process of a fleet lists the whole guild itself.
	const listers = (): ListingClient[] => [
		...(boss ? [{ rest: boss.client.rest, label: 'the boss' }] : []),
		...(lister ? [{ rest: lister.rest, label: 'LISTER_TOKEN', pace: slots && ((signal?: AbortSignal) => slots.wait(signal)) }] : []),
		...fleet.active.filter((worker) => worker.listsMembers).map((worker) => ({ rest: worker.client.rest, label: worker.label })),
	];
	if (listers().length === 0) {
		await stopAll();
		throw new JobError(
			ErrorCodes.MembersIntentDisabled,
			`No bot of this process may list the guild's members: there is no boss here, and none of its workers' applications (${fleet.workers.map((worker) => worker.label).join(', ') || 'none'}) has the Server Members intent. Set LISTER_TOKEN to the boss's token (it only lists, over REST, with no gateway connection), or switch the intent on for the workers' applications.`,
		);
	}
	// Every request counts towards the same per-address invalid-request limit as the workers'.
	if (boss) fleet.guard.watch(boss.client.rest);
	if (lister) fleet.guard.watch(lister.rest);
	const guildContext = (): GuildContext => (boss ? boss.guildContext() : fleetGuildContext(fleet, lister ? [lister.userId] : []));
	const guild = (): Guild => boss?.guild ?? fleet.active[0]?.guild ?? fleet.workers[0]!.guild;
	const actionDeps: ActionDeps = {
		nicknameMaxLength: config.nickname.maxLength,
		role: (id) => {
			const role = guild().roles.cache.get(id);
			return role ? { id: role.id, name: role.name, position: role.position, managed: role.managed } : undefined;
		},
		guildContext,
	};
	const jobs = new JobManager({
		config,
		fleet,
		guildContext,
		guildClients: () => [...(boss ? [boss.client] : []), ...fleet.workers.map((worker) => worker.client)],
		listers,
		actionOf: (header) => actionOf(header, actionDeps),
		observeJobs: options.observeJobs,
		logger: logger.child({ component: 'jobs' }),
	});
	boss?.attach({ config, fleet, jobs, actionDeps, logger: logger.child({ component: 'commands' }) });
	let interrupted: Awaited<ReturnType<JobManager['interrupted']>>;
	try {
		interrupted = await jobs.interrupted();
	} catch (error) {
		await stopAll();
		throw error;
	}
	if (interrupted) {
		logger.warn(
			{ job: interrupted.header.jobId, title: interrupted.header.title, state: interrupted.state },
			'a job did not finish last time; /status counts what is left, and running it again with the same target finishes it',
		);
	}
	const resume = async (): Promise<Job | undefined> => {
		const log = logger.child({ component: 'resume' });
		const disk = await readResumeInput(jobs.journals, jobs.records, jobs.current?.id, (header) => isIrreversible(header, (journal) => jobs.actionOf(journal)));
		const here = { workers: fleet.size, boss: boss !== undefined, fleetShare: fleet.scope.whyNoResume() };
		const decide: DecideResume = (facts) => decideResume({ ...disk, now: Date.now(), settings: { resumeOnStart: config.jobs.resumeOnStart }, here, facts });
		if (boss) return boss.resume(decide, log, fleet);
		// Without a boss nothing goes on (see decideResume): only why is logged.
		logUnresumed(decide(), log, fleet);
		return undefined;
	};
	const forgetRestored = async (): Promise<void> => {
		try {
			const deleted = await deleteRestoredJournals(config.dataDir, { deleteRestoredAfterDays: config.journal.deleteRestoredAfterDays });
			await boss?.forget(deleted.map((journal) => journal.header.jobId));
			for (const journal of deleted) {
				logger.info({ journal: journalName(journal), restoredAt: journal.endedAt }, 'deleted a fully restored journal past journal.deleteRestoredAfterDays');
			}
		} catch (error) {
			logger.warn({ err: error }, 'could not check the journals for ones past their keep time');
		}
	};
	await forgetRestored();
	const daily = setInterval(() => void forgetRestored(), 24 * 60 * 60 * 1000).unref();
	logger.info(
		{
			workers: fleet.size,
			...fleet.scope.logFields(),
			boss: boss !== undefined,
			listing: listers().map((listing) => listing.label),
		},
		'massnick is ready',
	);
	return {
		boss,
		fleet,
		jobs,
		get guild() {
			return guild();
		},
		guildContext,
		actionDeps,
		listers,
		resume,
		async stop() {
			clearInterval(daily);
			await jobs.stop();
			await stopAll();
		},
	};
}
