import type { Client } from 'discord.js';
import type { Logger } from 'pino';
import { type Config, expandAuditLogReason } from '../config/index.js';
import { permissionNames } from '../discord/permissionNames.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Fleet } from '../workers/Fleet.js';
import { forRequester, type GuildContext } from './GuildContext.js';
import { Job, type JobMode } from './Job.js';
import { JobJournal, type JobJournalSummary, type JournalHolding } from './JobJournal.js';
import { Journal, type JournalCounts, type JournalHeader } from './Journal.js';
import { finerFiltersOf } from './filters/hasFinerFilters.js';
import { type FleetJob, readFleetJobs } from './fleetJobs.js';
import type { ListingClient } from './listMembers.js';
import { LiveGuildContext } from './LiveGuildContext.js';
import type { MassAction } from './MassAction.js';
import { type MemberFilters, planMember, planRestore } from './planner.js';
import type { ProgressSnapshot, WorkerCounts } from './Progress.js';
import { actionToUndo, newestOpen, noJournalError } from './restoreQueries.js';
import type { Requester } from './Requester.js';
import type { RequesterRank } from './RequesterRank.js';
import { watchRoles } from './watchRoles.js';
import { type RestoreRecord, readRunRecord, type RunRecord, writeRunRecord } from './journal/runRecord.js';

export interface StartJobOptions {
	dryRun: boolean;
	startedBy: Requester;
	/**
	 * How far `startedBy` reaches by hand, read from the guild when they started it: the job
	 * reaches no further (a role at or above them is refused, a member at or above them left alone).
	 */
	rank: RequesterRank;
	filters?: MemberFilters | undefined;
	/** Journal what the job changes, so /restore can undo it. Default true. */
	journal?: boolean | undefined;
	/**
	 * Who asked and where, kept beside the journal once it is open (see {@link RunRecord}), so a
	 * restart can resume the job: a start from a slash command, or a resume. None for a dry run.
	 */
	record?: RunRecord | undefined;
}

export interface StartRestoreOptions {
	dryRun: boolean;
	startedBy: Requester;
	/** As for a job: the restore reaches no further than `startedBy` by hand. */
	rank: RequesterRank;
	/**
	 * Run instead when no journal is left to undo (for example, clearing a value where it is
	 * still set); without it, no journal is an error.
	 */
	fallback?: MassAction | undefined;
	/** Added to the error when no journal is left and there is no fallback: what the user can do. */
	noJournalHint?: string | undefined;
	/**
	 * Who ran the restore and where, kept in the job's run record so that a restart resumes the
	 * restore (see {@link JobManager.interruptedRestore}): a /restore, or its resume.
	 */
	record?: RestoreRecord | undefined;
}

/** What a restore undoes: the journal's job, or nothing when it runs the fallback. */
export interface StartedRestore {
	job: Job;
	undoes: JobJournalSummary | undefined;
}

export interface JobManagerOptions {
	config: Config;
	/**
	 * This process's workers. Jobs change only their members, and keep their journals: one file
	 * per job when the fleet holds every worker, one per worker held otherwise (see `JobJournal`).
	 */
	fleet: Fleet;
	/** The guild as it is now: roles, owner, bots (read from the boss's cache at each start). */
	guildContext: () => GuildContext;
	/**
	 * The clients whose role and member events may change {@link guildContext} (the boss's and
	 * the workers'): a running job reads the context again after each. Default: the workers'.
	 */
	guildClients?: () => readonly Client[];
	/** The bots that may list members now: the boss, and any worker whose application has the intent. */
	listers: () => ListingClient[];
	/** Rebuilds the action a journal was written by, for its restore; `undefined` if unknown. */
	actionOf: (header: JournalHeader) => MassAction | undefined;
	logger: Logger;
}

/**
 * Starts jobs, one changing job at a time per guild, and ties each to its journal. It knows jobs
 * by their action's type and target only: what a job changes is the action's business.
 *
 * A journal stays "open" until a /restore undoes it: running the same action with the same target
 * again (a rerun after a crash, or the next stage of a staged rollout) appends to the same journal,
 * whose first value per member wins, so /restore brings back what members had before the first
 * run. Another target starts a new journal; /restore undoes the newest open one first.
 */
export class JobManager {
	#current: Job | undefined;
	#last: Job | undefined;
	#lastCount: Job | undefined;
	/** Between the idle check and the job's launch (journal I/O): the slot is taken already. */
	#starting: Promise<unknown> | undefined;
	/** The last job's ending: its journal marked and closed. The next job waits for it. */
	#ending: Promise<void> = Promise.resolve();
	#stopping = false;
	readonly #counts = new Set<Job>();
	/** What each running count counts: its action, target and filters. */
	readonly #countKeys = new WeakMap<Job, string>();
	/** Each job's journal files, for people (a dry run and a count have none). */
	readonly #journalPaths = new WeakMap<Job, readonly string[]>();
	/** How many members each job's journal held when it started: what earlier runs changed. */
	readonly #journaledAtStart = new WeakMap<Job, number>();
	/** Jobs with a run record beside their journal, which follows their status message. */
	readonly #recorded = new WeakSet<Job>();
	/** Each running job's view of the guild, read again on Discord's role and member events. */
	readonly #contexts = new WeakMap<Job, LiveGuildContext>();
	/** Jobs cancelled by {@link stop}: their journal says `stopped`, not `cancelled`. */
	readonly #stoppedByShutdown = new WeakSet<Job>();
	/** Restores whose run record says who ran them: their end is written there. */
	readonly #restoreRecorded = new WeakSet<Job>();
	/** Run record updates, one after another (a read, then a write of the whole file). */
	#recordWrites: Promise<unknown> = Promise.resolve();
	#counter = 0;
	readonly #options: JobManagerOptions;
	readonly #holding: JournalHolding;

	constructor(options: JobManagerOptions) {
		this.#options = options;
		this.#holding = options.fleet.scope;
	}

	/** The job that changes members now, if any (dry runs included: they hold the slot briefly). */
	get current(): Job | undefined {
		return this.#current;
	}

	/** The most recent job, running or ended. */
	get last(): Job | undefined {
		return this.#current ?? this.#last;
	}

	/** The most recent counting pass (/stats, or /status after a crash). */
	get lastCount(): Job | undefined {
		return this.#lastCount;
	}

	/**
	 * The newest journal whose job never finished: its process died mid-run (`running`) or shut
	 * down under it (`stopped`). Not the job running now.
	 */
	async interrupted(): Promise<JobJournalSummary | undefined> {
		const journals = await this.journals();
		return journals.find((journal) => (journal.state === 'running' || journal.state === 'stopped') && journal.header.jobId !== this.#current?.id);
	}

	/**
	 * The /restore a restart cut short: the newest journal not restored yet, whose run record says
	 * who ran its restore and holds no end of it. Not the restore running now.
	 */
	async interruptedRestore(): Promise<{ summary: JobJournalSummary; restore: RestoreRecord } | undefined> {
		const summary = await this.lastOpen();
		if (!summary || summary.header.jobId === this.#current?.id) return undefined;
		const record = await this.runRecord(summary.header.jobId);
		if (!record?.restore || record.restoreEndedAt !== undefined) return undefined;
		return { summary, restore: record.restore };
	}

	/** Who asked for job `jobId` and where (see {@link RunRecord}); `undefined` when none is kept. */
	runRecord(jobId: string): Promise<RunRecord | undefined> {
		const { config, logger } = this.#options;
		return readRunRecord(config.dataDir, config.guildId, jobId, (message) => logger.warn(message));
	}

	/**
	 * Changes job `jobId`'s run record, after any change asked for before; nothing when it has
	 * none. A failure only logs: the record serves a later resume, never the job itself.
	 */
	updateRunRecord(jobId: string, change: Partial<RunRecord>): Promise<void> {
		const { config, logger } = this.#options;
		const update = this.#recordWrites.then(async () => {
			try {
				const record = await this.runRecord(jobId);
				if (record) await writeRunRecord(config.dataDir, config.guildId, jobId, { ...record, ...change });
			} catch (error) {
				logger.warn({ err: error, job: jobId }, 'could not update the run record beside the journal');
			}
		});
		this.#recordWrites = update;
		return update;
	}

	/** Keeps where `job`'s live status message is, for a resume to edit it; only for a job with a run record. */
	noteStatusMessage(job: Job, statusMessage: NonNullable<RunRecord['statusMessage']>): Promise<void> {
		if (!this.#recorded.has(job)) return Promise.resolve();
		return this.updateRunRecord(job.id, { statusMessage });
	}

	/** How many members `job`'s journal held when it started (what earlier runs of it changed); `undefined` without one. */
	journaledAtStart(job: Job): number | undefined {
		return this.#journaledAtStart.get(job);
	}

	/**
	 * Closes the interrupted job (see {@link interrupted}) without going on with it: its journal is
	 * marked `cancelled`, so no restart resumes it. Its originals stay: the same command continues
	 * it, /restore undoes it.
	 *
	 * @returns the job closed, or `undefined` when there was none.
	 * @throws {JobError} `JOB_RUNNING` while a job starts or runs (cancel that instead).
	 */
	async closeInterrupted(): Promise<JobJournalSummary | undefined> {
		this.assertIdle();
		const summary = await this.interrupted();
		if (!summary) return undefined;
		await JobJournal.cancelUnfinished(this.#options.config.dataDir, summary);
		this.#options.logger.info({ job: summary.header.jobId, title: summary.header.title }, 'interrupted job closed without resuming it');
		return summary;
	}

	/**
	 * Every job journaled by this process's workers, newest first: a fleet process sees the files
	 * of the workers it holds, a process holding every worker sees every file.
	 */
	journals(): Promise<JobJournalSummary[]> {
		const { config } = this.#options;
		return JobJournal.list(config.dataDir, config.guildId, this.#holding);
	}

	/**
	 * The guild's jobs in the fleet's journals (`FLEET_JOURNALS_DIR`, and this process's own files
	 * when it holds some workers), newest first; `undefined` when FLEET_JOURNALS_DIR is unset.
	 *
	 * @throws {JobError} `FLEET_JOURNALS_UNREADABLE` when the folder cannot be read.
	 */
	async fleetJobs(): Promise<FleetJob[] | undefined> {
		const { config, fleet, logger } = this.#options;
		if (config.fleetJournalsDir === undefined) return undefined;
		return readFleetJobs(config.fleetJournalsDir, config.guildId, {
			alsoDataDirs: fleet.size > 0 ? [config.dataDir] : [],
			onWarning: (message) => logger.warn(message),
		});
	}

	/** Where `job`'s originals are journaled (none for a dry run or a count). */
	journalPaths(job: Job): readonly string[] {
		return this.#journalPaths.get(job) ?? [];
	}

	/** The action that wrote a journal, rebuilt (for a restore, or to count what is left). */
	actionOf(header: JournalHeader): MassAction | undefined {
		return this.#options.actionOf(header);
	}

	/** The newest journal not undone yet: what /restore would undo. */
	async lastOpen(): Promise<JobJournalSummary | undefined> {
		return newestOpen(await this.journals());
	}

	/**
	 * Starts `action` over the guild (or counts it, as a dry run). A run of the same action and
	 * target as an open journal appends to it.
	 */
	async startJob(action: MassAction, options: StartJobOptions): Promise<Job> {
		const filters = options.filters ?? {};
		// Refused before the journal is touched: nothing of a job out of its requester's reach is kept.
		action.checkRequester?.(forRequester(this.#options.guildContext(), options.rank), false);
		return this.#start(action, async () => {
			const { config } = this.#options;
			let journal: JobJournal | undefined;
			let jobId = this.#newJobId(action.type);
			if (!options.dryRun && options.journal !== false) {
				const open = (await this.journals()).find(
					(summary) => summary.state !== 'restored' && summary.header.action === action.type && summary.header.target === action.target,
				);
				if (open) {
					journal = await JobJournal.open(config.dataDir, open, this.#holding);
					jobId = open.header.jobId;
				} else {
					journal = await JobJournal.create(
						config.dataDir,
						{
							jobId,
							guildId: config.guildId,
							action: action.type,
							target: action.target,
							title: action.words.doing,
							onlyRoleId: filters.onlyRoleId ?? null,
							excludeRoleId: filters.excludeRoleId ?? null,
							...(finerFiltersOf(filters) ? { filters: finerFiltersOf(filters) } : {}),
							startedBy: options.startedBy,
							startedAt: new Date().toISOString(),
							workers: this.#options.fleet.count,
						},
						this.#holding,
					);
				}
			}
			try {
				const context = this.#liveContext(() => forRequester(this.#options.guildContext(), options.rank));
				action.checkRequester?.(context.get(), false);
				const recorded = journal && options.record ? await this.#writeRecord(jobId, options.record) : false;
				const job = this.#createJob({
					id: jobId,
					action,
					mode: 'apply',
					dryRun: options.dryRun,
					startedBy: options.startedBy,
					filters,
					plan: (member) => planMember(member, action, filters, context.get(), journal?.originalOf(member.id)),
					beforeChange: journal ? (changes) => journal.recordOriginals(changes) : undefined,
				});
				this.#contexts.set(job, context);
				if (recorded) this.#recorded.add(job);
				return { job, journal };
			} catch (error) {
				await journal?.close();
				throw error;
			}
		});
	}

	/**
	 * Undoes the newest job not undone yet, whatever its action: every member back to the value
	 * journaled before the job, only where the value is still the one the job set.
	 */
	async startRestore(options: StartRestoreOptions): Promise<StartedRestore> {
		const { config } = this.#options;
		const summary = await this.lastOpen();
		if (!summary) {
			if (!options.fallback) throw noJournalError(`${await this.#elsewhereHint()} ${options.noJournalHint ?? ''}`.trim());
			// The fallback is itself a last resort with nothing to go back to: it keeps no journal,
			// so the next /restore does not try to undo it.
			const job = await this.startJob(options.fallback, { dryRun: options.dryRun, startedBy: options.startedBy, rank: options.rank, journal: false });
			return { job, undoes: undefined };
		}
		const action = actionToUndo(summary.header, (header) => this.actionOf(header));
		action.checkRequester?.(forRequester(this.#options.guildContext(), options.rank), true);
		const job = await this.#start(action, async () => {
			// The restore reads the entries itself; the journal is opened only to mark it restored.
			const journal = await JobJournal.open(config.dataDir, summary, this.#holding, { restore: true });
			try {
				// Whatever becomes of the restore, the job it undoes is not to go on by itself; the
				// restore itself is, after a restart, when it says who ran it.
				if (!options.dryRun) {
					await this.updateRunRecord(summary.header.jobId, {
						restoreStartedAt: options.record?.startedAt ?? new Date().toISOString(),
						restore: options.record,
						restoreEndedAt: undefined,
					});
				}
				const entries = await journal.loadIndex();
				// Read again after the journal's I/O: a role moved meanwhile counts.
				const context = this.#liveContext(() => forRequester(this.#options.guildContext(), options.rank));
				action.checkRequester?.(context.get(), true);
				const restore = this.#createJob({
					id: summary.header.jobId,
					action,
					mode: 'restore',
					dryRun: options.dryRun,
					startedBy: options.startedBy,
					plan: (member) => planRestore(member, entries.get(member.id), action, context.get()),
				});
				this.#contexts.set(restore, context);
				if (options.record && !options.dryRun) this.#restoreRecorded.add(restore);
				return { job: restore, journal };
			} catch (error) {
				await journal.close();
				throw error;
			}
		});
		return { job, undoes: summary };
	}

	/**
	 * A dry run that only counts (for /stats and an interrupted job's remaining count); runs beside
	 * a job, over the whole guild wherever its workers run. `filters`: the job's, so a count of a
	 * job for some members leaves the others alone. A count of the same action, target and filters
	 * still running is reused rather than listing the guild twice.
	 */
	count(action: MassAction, startedBy: Requester, filters: MemberFilters = {}): Job {
		const key = countKey(action, filters);
		for (const running of this.#counts) if (this.#countKeys.get(running) === key) return running;
		const context = this.#options.guildContext();
		const job = this.#createJob({
			id: this.#newJobId('count'),
			action,
			mode: 'apply',
			dryRun: true,
			// A count sends nothing: it counts the whole guild, wherever its workers run.
			wholeGuild: true,
			startedBy,
			filters,
			plan: (member) => planMember(member, action, filters, context),
		});
		this.#countKeys.set(job, key);
		this.#lastCount = job;
		this.#counts.add(job);
		void job.run().finally(() => this.#counts.delete(job));
		return job;
	}

	/** Cancels the running job; returns it, or `undefined` when none runs. */
	cancel(): Job | undefined {
		const job = this.#current;
		if (!job || job.result) return undefined;
		job.cancel();
		return job;
	}

	/**
	 * Cancels everything (the job and any counts) and waits until they have ended and the
	 * journal's last line is on disk: for shutdown. No job starts after it. A job that was still
	 * running (nobody had cancelled it) is marked `stopped`, so the next `npm start` resumes it.
	 */
	async stop(): Promise<void> {
		this.#stopping = true;
		await this.#starting?.catch(() => {});
		const jobs = [this.#current, ...this.#counts].filter((job): job is Job => job !== undefined);
		const current = this.#current;
		if (current && (current.state === 'running' || current.state === 'planned')) this.#stoppedByShutdown.add(current);
		for (const job of jobs) job.cancel();
		await this.#recordWrites;
		await Promise.all(jobs.map((job) => job.ended()));
		while (this.#current) await new Promise((resolve) => setTimeout(resolve, 10));
		await this.#ending;
	}

	/** Throws a {@link JobError} saying what runs when a changing job is already running. */
	assertIdle(): void {
		if (this.#stopping) throw new JobError(ErrorCodes.JobRunning, 'massnick is shutting down; start the job again once it is back.');
		if (this.#starting) {
			throw new JobError(ErrorCodes.JobRunning, 'A job is starting right now.', { context: { starting: true } });
		}
		const job = this.#current;
		if (!job || job.result) return;
		const snapshot = job.progress.snapshot();
		throw new JobError(ErrorCodes.JobRunning, `A job is already running (${job.title}, ${snapshot.done} of ${snapshot.total} done).`, {
			context: { title: job.title, done: snapshot.done, total: snapshot.total },
		});
	}

	/**
	 * Refuses a job some workers could not do: every one needs the action's permission, or its
	 * slice would earn a 403 per member.
	 */
	assertPermitted(action: MassAction): void {
		const lacking = this.#options.fleet.active.filter((worker) => !worker.hasPermission(action.permission));
		if (lacking.length === 0) return;
		const names = lacking.map((worker) => worker.label).join(', ');
		const permission = permissionNames(action.permission).join(', ');
		throw new JobError(
			ErrorCodes.MissingPermission,
			`${lacking.length === 1 ? `${names} lacks` : `${names} lack`} the ${permission} permission this job needs: give the workers' role ${permission} (Server Settings → Roles), then run it again.`,
		);
	}

	/** Takes the one slot at once (before any I/O), builds the job, launches it. */
	async #start(action: MassAction, build: () => Promise<{ job: Job; journal: JobJournal | undefined }>): Promise<Job> {
		this.assertIdle();
		if (this.#options.fleet.size === 0) {
			throw new JobError(
				ErrorCodes.NoWorkers,
				`This massnick holds none of the ${this.#options.fleet.count} workers (WORKER_IDS=none): they run in other processes. Run the job there (massnick run, or the fleet's Kubernetes Job).`,
				{ context: { workerCount: this.#options.fleet.count } },
			);
		}
		if (this.#options.fleet.active.length === 0) {
			throw new JobError(
				ErrorCodes.NoWorkers,
				'No worker is connected (their tokens were rejected, or they are still reconnecting). Check WORKER_TOKENS and the bot log, then try again.',
			);
		}
		this.assertPermitted(action);
		const starting = (async () => {
			// The previous job's journal is marked and closed before anything reads the journals.
			await this.#ending;
			const { job, journal } = await build();
			this.#launch(job, journal);
			return job;
		})();
		this.#starting = starting;
		try {
			return await starting;
		} finally {
			this.#starting = undefined;
		}
	}

	#createJob(spec: {
		id: string;
		action: MassAction;
		mode: JobMode;
		dryRun: boolean;
		wholeGuild?: boolean;
		startedBy: Requester;
		filters?: MemberFilters;
		plan: ConstructorParameters<typeof Job>[0]['plan'];
		beforeChange?: ConstructorParameters<typeof Job>[0]['beforeChange'];
	}): Job {
		const { config, fleet, logger } = this.#options;
		return new Job({
			...spec,
			fleet,
			listers: this.#options.listers(),
			guildId: config.guildId,
			reason: expandAuditLogReason(config.auditLogReason, {
				jobKind: spec.mode === 'restore' ? 'restore' : spec.action.type,
				jobId: spec.id,
				user: spec.startedBy.tag,
				userId: spec.startedBy.id,
			}),
			maxInFlight: config.workers.maxInFlight,
			retry: config.workers.retry,
			logger: logger.child({ job: spec.id }),
		});
	}

	/** A job's view of the guild that follows Discord's role events while it runs (stopped by #launch once it ends). */
	#liveContext(read: () => GuildContext): LiveGuildContext {
		const clients = this.#options.guildClients?.() ?? this.#options.fleet.workers.map((worker) => worker.client);
		return new LiveGuildContext(read, clients);
	}

	#launch(job: Job, journal: JobJournal | undefined): void {
		this.#current = job;
		if (journal) {
			this.#journalPaths.set(job, journal.paths);
			this.#journaledAtStart.set(job, journal.size);
		}
		const { fleet } = this.#options;
		const log = this.#options.logger.child({ job: job.id });
		log.info(
			{
				action: job.action.type,
				mode: job.mode,
				target: job.target,
				dryRun: job.dryRun,
				by: job.startedBy.tag,
				workers: fleet.size,
				...fleet.scope.logFields(),
				journal: journal?.paths,
			},
			'job started',
		);
		// A run lasts hours; the log shows it moving without anyone asking /status.
		const ticker = setInterval(() => log.info(progressFields(job.progress.snapshot()), 'job progress'), PROGRESS_LOG_INTERVAL_MS);
		ticker.unref();
		const unwatch = job.dryRun ? () => {} : watchRoles(job, fleet, this.#options.config.guildId);
		this.#ending = job.run().then(async (result) => {
			clearInterval(ticker);
			unwatch();
			this.#contexts.get(job)?.stop();
			log.info({ state: result.state, ...progressFields(job.progress.snapshot()), stoppedWorkers: result.stoppedWorkers }, 'job ended');
			// The slot frees first: whatever happens to the journal below, the guild is not stuck.
			this.#last = job;
			this.#current = undefined;
			if (!journal) return;
			const snapshot = job.progress.snapshot();
			// The whole-guild file gets the job's counts, a worker's file that worker's.
			const countsOf = (workerId: number | undefined): JournalCounts | undefined => {
				if (workerId === undefined) return journalCounts(snapshot);
				const worker = snapshot.workers.find((counts) => counts.index === workerId);
				return worker && journal.header.workers === fleet.count ? workerJournalCounts(worker) : undefined;
			};
			try {
				if (!job.dryRun) {
					if (job.mode === 'restore') {
						// Only a restore that put every member back closes the journal: one with failures,
						// a stopped worker, or members ranked at or above its requester leaves it open for
						// the next /restore (by someone who reaches them) to finish.
						const complete = snapshot.failed === 0 && snapshot.aboveRequester === 0 && result.stoppedWorkers.length === 0;
						if (result.state === 'finished' && complete) await journal.mark('restored', countsOf);
					} else if (result.state === 'finished') await journal.mark('finished', countsOf);
					else if (result.state === 'cancelled') await journal.mark(this.#stoppedByShutdown.has(job) ? 'stopped' : 'cancelled', countsOf);
				}
			} catch (error) {
				this.#options.logger.error({ err: error, job: job.id }, 'could not write the end of the journal');
			}
			try {
				await journal.close();
			} catch (error) {
				this.#options.logger.error({ err: error, job: job.id }, 'could not close the journal');
			}
			// A restore that ended by itself or by /cancel is not resumed; one a shutdown stopped, or
			// that failed (a full disk, say), is, as a job is. After the journal: one marked restored
			// is no restart's to find either way.
			if (this.#restoreRecorded.has(job) && result.state !== 'failed' && !this.#stoppedByShutdown.has(job)) {
				await this.updateRunRecord(job.id, { restoreEndedAt: new Date().toISOString() });
			}
		});
	}

	/**
	 * Why a fleet process finds nothing to undo when there is something: a journal its data folder
	 * holds for every worker, or for workers it does not hold.
	 */
	async #elsewhereHint(): Promise<string> {
		const { config, fleet } = this.#options;
		const others = ((await fleet.scope.elsewhere(() => Journal.list(config.dataDir, config.guildId))) ?? []).filter((summary) => summary.state !== 'restored');
		if (others.length === 0) return '';
		const files = others.map((summary) => summary.path).join(', ');
		return ` This process holds workers ${fleet.ids.join(', ')} of ${fleet.count}, and journals of other workers are here (${files}): restore them with the processes holding those workers, or with a massnick holding every worker.`;
	}

	/** Writes a job's run record; `false`, having logged why, when it could not. */
	async #writeRecord(jobId: string, record: RunRecord): Promise<boolean> {
		const { config, logger } = this.#options;
		const write = this.#recordWrites.then(() => writeRunRecord(config.dataDir, config.guildId, jobId, record));
		this.#recordWrites = write.catch(() => undefined);
		try {
			await write;
			return true;
		} catch (error) {
			logger.warn({ err: error, job: jobId }, 'could not keep who asked for the job beside its journal: a restart will not resume it');
			return false;
		}
	}

	#newJobId(kind: string): string {
		const stamp = new Date()
			.toISOString()
			.replace(/[-:]/g, '')
			.replace(/\.\d+Z$/, 'Z');
		return `${stamp}-${kind}-${++this.#counter}`;
	}
}

/** A count's identity: the same key counts the same members the same way. */
function countKey(action: MassAction, filters: MemberFilters): string {
	return JSON.stringify([action.type, action.target, filters.onlyRoleId ?? null, filters.excludeRoleId ?? null, finerFiltersOf(filters) ?? null]);
}

/** How often a running job logs its progress. */
const PROGRESS_LOG_INTERVAL_MS = 60_000;

function progressFields(snapshot: ProgressSnapshot): Record<string, unknown> {
	const { total, done, changed, alreadyDone, cant, aboveRequester, left, failed } = snapshot;
	return { total, done, changed, alreadyDone, cant, aboveRequester, left, failed, perSecond: Number(snapshot.rate.toFixed(1)) };
}

/** The counters a journal's status line keeps. */
function journalCounts(snapshot: ProgressSnapshot): Record<string, number | Record<string, number>> {
	const { total, changed, alreadyDone, cant, aboveRequester, skipped, left, failedByReason } = snapshot;
	return { total, changed, alreadyDone, cant, aboveRequester, skipped, left, failed: failedByReason };
}

/** The same counters for one worker's file. */
function workerJournalCounts(worker: WorkerCounts): Record<string, number | Record<string, number>> {
	const { inSlice, changed, alreadyDone, cant, aboveRequester, skipped, left, failed } = worker;
	return { total: inSlice, changed, alreadyDone, cant, aboveRequester, skipped, left, failed: { ...failed } };
}
