import type { Logger } from 'pino';
import type { Config } from '../config/Config.js';
import { expandAuditLogReason } from '../config/auditLogReason.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Fleet } from '../workers/Fleet.js';
import { Job, type JobKind } from './Job.js';
import { Journal, type JournalSummary } from './Journal.js';
import { type GuildContext, planClear, planRename, planRestore } from './planner.js';
import type { ProgressSnapshot } from './Progress.js';
import type { ListingClient } from './listMembers.js';
import { isExpansionOf, parseTemplate, type Template } from './template.js';

/** Who ran a command, as the audit log and the journal name them. */
export interface Requester {
	id: string;
	tag: string;
}

export interface StartRenameOptions {
	name: string;
	roleId?: string | undefined;
	excludeRoleId?: string | undefined;
	dryRun: boolean;
	startedBy: Requester;
}

export interface StartRestoreOptions {
	dryRun: boolean;
	/** Only used when no journal is left: clear this nickname (or template) wherever it is set. */
	name?: string | undefined;
	startedBy: Requester;
}

export interface JobManagerOptions {
	config: Config;
	fleet: Fleet;
	/** The guild as it is now: roles, owner, bots (read from the boss's cache at each start). */
	guildContext: () => GuildContext;
	/** The bots that may list members now: the boss, and any worker whose application has the intent. */
	listers: () => ListingClient[];
	logger: Logger;
}

/**
 * Starts jobs, one changing job at a time per guild, and ties each to its journal.
 *
 * A rename journal stays "open" until a /restore undoes it: running /massnick again with the
 * same name (a rerun after a crash, or the next stage of a staged rollout) appends to the same
 * journal, whose first value per member wins, so /restore brings back the names members had
 * before the first run. A new name starts a new journal; /restore undoes the newest first.
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
	#counter = 0;
	readonly #options: JobManagerOptions;

	constructor(options: JobManagerOptions) {
		this.#options = options;
	}

	/** The job that changes nicknames now, if any (dry runs included: they hold the slot briefly). */
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

	/** The newest rename whose journal says it never finished (the process died mid-run). */
	async interrupted(): Promise<JournalSummary | undefined> {
		const { config } = this.#options;
		const journals = await Journal.list(config.dataDir, config.guildId);
		return journals.find((journal) => journal.header.kind === 'rename' && journal.state === 'running' && journal.header.jobId !== this.#current?.id);
	}

	/** Parses a name or template from a command, with Discord's 32-character rule. */
	parseName(name: string): Template {
		return parseTemplate(name, { maxLength: this.#options.config.nickname.maxLength });
	}

	async startRename(options: StartRenameOptions): Promise<Job> {
		const template = this.parseName(options.name);
		return this.#start(async () => {
			const { config } = this.#options;
			const spec = { kind: 'rename' as const, template, roleId: options.roleId, excludeRoleId: options.excludeRoleId };
			let journal: Journal | undefined;
			let jobId = this.#newJobId('rename');
			if (!options.dryRun) {
				const open = (await Journal.list(config.dataDir, config.guildId)).find(
					(summary) => summary.header.kind === 'rename' && summary.state !== 'restored' && summary.header.template === template.source,
				);
				if (open) {
					journal = await Journal.open(config.dataDir, config.guildId, open.header.jobId);
					jobId = open.header.jobId;
				} else {
					journal = await Journal.create(config.dataDir, {
						jobId,
						guildId: config.guildId,
						kind: 'rename',
						template: template.source,
						roleId: options.roleId ?? null,
						excludeRoleId: options.excludeRoleId ?? null,
						startedBy: options.startedBy,
						startedAt: new Date().toISOString(),
						workers: this.#options.fleet.size,
					});
				}
			}
			try {
				const context = this.#options.guildContext();
				const job = this.#createJob({
					id: jobId,
					kind: 'rename',
					target: template.source,
					dryRun: options.dryRun,
					startedBy: options.startedBy,
					plan: (member) => planRename(member, spec, context, journal?.originalOf(member.id)),
					beforeChange: journal ? (changes) => journal.recordOriginals(changes) : undefined,
				});
				return { job, journal };
			} catch (error) {
				await journal?.close();
				throw error;
			}
		});
	}

	/**
	 * Restores the newest rename that was not undone yet. With no journal, and a `name`, clears
	 * that nickname wherever it is still set (the originals are lost); `fallback` says which.
	 */
	async startRestore(options: StartRestoreOptions): Promise<{ job: Job; fallback: boolean }> {
		const fallbackTemplate = options.name === undefined ? undefined : this.parseName(options.name);
		let fallback = false;
		const job = await this.#start(async () => {
			const { config } = this.#options;
			const summary = (await Journal.list(config.dataDir, config.guildId)).find(
				(entry) => entry.header.kind === 'rename' && entry.state !== 'restored',
			);
			const context = this.#options.guildContext();
			if (!summary) {
				if (fallbackTemplate === undefined) {
					throw new JobError(
						ErrorCodes.NoJournal,
						'There is no journal of original nicknames to restore from. To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
					);
				}
				fallback = true;
				const clear = this.#createJob({
					id: this.#newJobId('clear'),
					kind: 'clear',
					target: fallbackTemplate.source,
					dryRun: options.dryRun,
					startedBy: options.startedBy,
					plan: (member) => planClear(member, fallbackTemplate, context),
				});
				return { job: clear, journal: undefined };
			}
			// The restore reads the entries itself; the journal is opened only to mark it restored.
			const journal = await Journal.open(config.dataDir, config.guildId, summary.header.jobId, { index: false });
			try {
				const entries = await journal.loadIndex();
				const template = summary.header.template === null ? undefined : this.parseName(summary.header.template);
				const restore = this.#createJob({
					id: summary.header.jobId,
					kind: 'restore',
					target: summary.header.template ?? '',
					dryRun: options.dryRun,
					startedBy: options.startedBy,
					plan: (member) => {
						const entry = entries.get(member.id);
						if (!entry) return { action: 'skip', reason: 'not-journaled' };
						// A rerun after a member changed their display name set a newer expansion than the
						// one journaled first; it is still the job's name, not one the member chose.
						const current = member.nick;
						const stillOurs = current !== null && current !== entry.to && template !== undefined && isExpansionOf(template, member, current);
						return planRestore(member, stillOurs ? { ...entry, to: current } : entry, context);
					},
				});
				return { job: restore, journal };
			} catch (error) {
				await journal.close();
				throw error;
			}
		});
		return { job, fallback };
	}

	/**
	 * A dry run that only counts (for /stats and an interrupted job's remaining count); runs beside
	 * a job. A count of the same name still running is reused rather than listing the guild twice.
	 */
	count(name: string, startedBy: Requester): Job {
		const template = this.parseName(name);
		for (const running of this.#counts) if (running.target === template.source) return running;
		const context = this.#options.guildContext();
		const spec = { kind: 'rename' as const, template };
		const job = this.#createJob({
			id: this.#newJobId('count'),
			kind: 'rename',
			target: template.source,
			dryRun: true,
			startedBy,
			plan: (member) => planRename(member, spec, context),
		});
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
	 * journal's last line is on disk: for shutdown. No job starts after it.
	 */
	async stop(): Promise<void> {
		this.#stopping = true;
		await this.#starting?.catch(() => {});
		const jobs = [this.#current, ...this.#counts].filter((job): job is Job => job !== undefined);
		for (const job of jobs) job.cancel();
		await Promise.all(jobs.map((job) => job.ended()));
		while (this.#current) await new Promise((resolve) => setTimeout(resolve, 10));
		await this.#ending;
	}

	/** Throws a {@link JobError} saying what runs when a changing job is already running. */
	assertIdle(): void {
		if (this.#stopping) throw new JobError(ErrorCodes.JobRunning, 'massnick is shutting down; start the job again once it is back.');
		if (this.#starting) {
			throw new JobError(ErrorCodes.JobRunning, 'A job is starting right now. Watch it with /status, or stop it with /cancel.');
		}
		const job = this.#current;
		if (!job || job.result) return;
		const snapshot = job.progress.snapshot();
		const what = job.kind === 'rename' ? `renaming to "${job.target}"` : `${job.kind} of "${job.target}"`;
		throw new JobError(
			ErrorCodes.JobRunning,
			`A job is already running (${what}, ${snapshot.done} of ${snapshot.total} done). Watch it with /status, or stop it with /cancel first.`,
		);
	}

	/** Takes the one slot at once (before any I/O), builds the job, launches it. */
	async #start(build: () => Promise<{ job: Job; journal: Journal | undefined }>): Promise<Job> {
		this.assertIdle();
		if (this.#options.fleet.active.length === 0) {
			throw new JobError(
				ErrorCodes.NoWorkers,
				'No worker is connected (their tokens were rejected, or they are still reconnecting). Check WORKER_TOKENS and the bot log, then try again.',
			);
		}
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
		kind: JobKind;
		target: string;
		dryRun: boolean;
		startedBy: Requester;
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
				jobKind: spec.kind,
				jobId: spec.id,
				user: spec.startedBy.tag,
				userId: spec.startedBy.id,
			}),
			maxInFlight: config.workers.maxInFlight,
			retry: config.workers.retry,
			logger: logger.child({ job: spec.id }),
		});
	}

	#launch(job: Job, journal: Journal | undefined): void {
		this.#current = job;
		const log = this.#options.logger.child({ job: job.id });
		log.info({ kind: job.kind, target: job.target, dryRun: job.dryRun, by: job.startedBy.tag, workers: this.#options.fleet.size }, 'job started');
		// A run lasts hours; the log shows it moving without anyone asking /status.
		const ticker = setInterval(() => log.info(progressFields(job.progress.snapshot()), 'job progress'), PROGRESS_LOG_INTERVAL_MS);
		ticker.unref();
		this.#ending = job.run().then(async (result) => {
			clearInterval(ticker);
			log.info({ state: result.state, ...progressFields(job.progress.snapshot()), stoppedWorkers: result.stoppedWorkers }, 'job ended');
			// The slot frees first: whatever happens to the journal below, the guild is not stuck.
			this.#last = job;
			this.#current = undefined;
			if (!journal) return;
			const snapshot = job.progress.snapshot();
			const counts = journalCounts(snapshot);
			try {
				if (!job.dryRun) {
					if (job.kind === 'restore') {
						// Only a restore that put every member back closes the journal: one with failures,
						// or a stopped worker, leaves it open for the next /restore to finish.
						if (result.state === 'finished' && snapshot.failed === 0 && result.stoppedWorkers.length === 0) await journal.markRestored(counts);
					} else if (result.state === 'finished') await journal.markFinished(counts);
					else if (result.state === 'cancelled') await journal.markCancelled(counts);
				}
			} catch (error) {
				this.#options.logger.error({ err: error, job: job.id }, 'could not write the end of the journal');
			}
			try {
				await journal.close();
			} catch (error) {
				this.#options.logger.error({ err: error, job: job.id }, 'could not close the journal');
			}
		});
	}

	#newJobId(kind: string): string {
		const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
		return `${stamp}-${kind}-${++this.#counter}`;
	}
}

/** How often a running job logs its progress. */
const PROGRESS_LOG_INTERVAL_MS = 60_000;

function progressFields(snapshot: ProgressSnapshot): Record<string, unknown> {
	const { total, done, renamed, alreadyDone, cantRename, left, failed } = snapshot;
	return { total, done, renamed, alreadyDone, cantRename, left, failed, perSecond: Number(snapshot.rate.toFixed(1)) };
}

/** The counters a journal's status line keeps. */
function journalCounts(snapshot: ProgressSnapshot): Record<string, number | Record<string, number>> {
	const { total, renamed, alreadyDone, cantRename, skipped, left, failedByReason } = snapshot;
	return { total, renamed, alreadyDone, cantRename, skipped, left, failed: failedByReason };
}
