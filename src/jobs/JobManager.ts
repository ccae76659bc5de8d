import type { Logger } from 'pino';
import type { Config } from '../config/Config.js';
import { expandAuditLogReason } from '../config/auditLogReason.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Fleet } from '../workers/Fleet.js';
import { Job, type JobKind } from './Job.js';
import { Journal, type JournalSummary } from './Journal.js';
import { type GuildContext, planClear, planRename, planRestore } from './planner.js';
import type { ProgressSnapshot } from './Progress.js';
import { parseTemplate, type Template } from './template.js';

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
		this.assertIdle();
		const template = this.parseName(options.name);
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
		const context = this.#options.guildContext();
		const job = this.#createJob({
			id: jobId,
			kind: 'rename',
			target: template.source,
			dryRun: options.dryRun,
			startedBy: options.startedBy,
			plan: (member) => planRename(member, spec, context, journal?.originalOf(member.id)),
			beforeChange: journal
				? (changes) => journal.recordOriginals(changes)
				: undefined,
		});
		this.#launch(job, journal);
		return job;
	}

	/**
	 * Restores the newest rename that was not undone yet. With no journal, and a `name`, clears
	 * that nickname wherever it is still set (the originals are lost); `fallback` says which.
	 */
	async startRestore(options: StartRestoreOptions): Promise<{ job: Job; fallback: boolean }> {
		this.assertIdle();
		const { config } = this.#options;
		const summary = (await Journal.list(config.dataDir, config.guildId)).find(
			(entry) => entry.header.kind === 'rename' && entry.state !== 'restored',
		);
		const context = this.#options.guildContext();
		if (!summary) {
			if (options.name === undefined) {
				throw new JobError(
					ErrorCodes.NoJournal,
					'There is no journal of original nicknames to restore from. To clear a nickname wherever it is set instead, run /restore with `name:` set to it (the originals cannot be recovered that way).',
				);
			}
			const template = this.parseName(options.name);
			const job = this.#createJob({
				id: this.#newJobId('clear'),
				kind: 'clear',
				target: template.source,
				dryRun: options.dryRun,
				startedBy: options.startedBy,
				plan: (member) => planClear(member, template, context),
			});
			this.#launch(job, undefined);
			return { job, fallback: true };
		}
		const journal = await Journal.open(config.dataDir, config.guildId, summary.header.jobId);
		const entries = await journal.loadIndex();
		const job = this.#createJob({
			id: summary.header.jobId,
			kind: 'restore',
			target: summary.header.template ?? '',
			dryRun: options.dryRun,
			startedBy: options.startedBy,
			plan: (member) => {
				const entry = entries.get(member.id);
				return entry ? planRestore(member, entry, context) : { action: 'skip', reason: 'not-journaled' };
			},
		});
		this.#launch(job, journal);
		return { job, fallback: false };
	}

	/** A dry run that only counts (for /stats and an interrupted job's remaining count); runs beside a job. */
	count(name: string, startedBy: Requester): Job {
		const template = this.parseName(name);
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
		void job.run();
		return job;
	}

	/** Cancels the running job; returns it, or `undefined` when none runs. */
	cancel(): Job | undefined {
		const job = this.#current;
		job?.cancel();
		return job;
	}

	/** Waits for the running job to end (used on shutdown after cancel). */
	async settle(): Promise<void> {
		const job = this.#current;
		if (job && !job.result) await new Promise<void>((resolve) => job.once('state', () => resolve()));
		while (this.#current) await new Promise((resolve) => setTimeout(resolve, 20));
	}

	/** Throws a {@link JobError} saying what runs when a changing job is already running. */
	assertIdle(): void {
		const job = this.#current;
		if (!job) return;
		const snapshot = job.progress.snapshot();
		const what = job.kind === 'rename' ? `renaming to "${job.target}"` : `${job.kind} of "${job.target}"`;
		throw new JobError(
			ErrorCodes.JobRunning,
			`A job is already running (${what}, ${snapshot.done} of ${snapshot.total} done). Watch it with /status, or stop it with /cancel first.`,
		);
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
		if (fleet.active.length === 0) {
			throw new JobError(
				ErrorCodes.NoWorkers,
				'No worker is connected (their tokens were rejected, or they are still reconnecting). Check WORKER_TOKENS and the bot log, then try again.',
			);
		}
		return new Job({
			...spec,
			fleet,
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
		void job.run().then(async (result) => {
			const counts = journalCounts(job.progress.snapshot());
			try {
				if (journal && !job.dryRun) {
					if (job.kind === 'restore') {
						if (result.state === 'finished') await journal.markRestored(counts);
					} else if (result.state === 'finished') await journal.markFinished(counts);
					else if (result.state === 'cancelled') await journal.markCancelled(counts);
				}
			} catch (error) {
				this.#options.logger.error({ err: error }, 'could not close the journal');
			} finally {
				await journal?.close();
				this.#last = job;
				this.#current = undefined;
			}
		});
	}

	#newJobId(kind: string): string {
		const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
		return `${stamp}-${kind}-${++this.#counter}`;
	}
}

/** The counters a journal's status line keeps. */
function journalCounts(snapshot: ProgressSnapshot): Record<string, number | Record<string, number>> {
	const { total, renamed, alreadyDone, cantRename, skipped, left, failedByReason } = snapshot;
	return { total, renamed, alreadyDone, cantRename, skipped, left, failed: failedByReason };
}
