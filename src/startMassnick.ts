import type { Logger } from 'pino';
import { actionOf } from './actions/actionOf.js';
import { Boss } from './boss/Boss.js';
import type { Config } from './config/Config.js';
import { JobManager } from './jobs/JobManager.js';
import { deleteRestoredJournals, journalName } from './jobs/journal/journalsOnDisk.js';
import type { ListingClient } from './jobs/listMembers.js';
import { Fleet } from './workers/Fleet.js';

/** A running massnick: the boss, its workers and the jobs they share. */
export interface Massnick {
	readonly boss: Boss;
	readonly fleet: Fleet;
	readonly jobs: JobManager;
	/** The bots that may list members now: the boss, and any worker whose application has the intent. */
	listers(): ListingClient[];
	/** Cancels the running job, lets requests on the wire finish, closes the journal, logs out. */
	stop(): Promise<void>;
}

/**
 * Starts the boss and every worker, registers the commands, and wires them to the jobs.
 * Every start problem is reported (a rejected token is named by its place, never shown).
 */
export async function startMassnick(config: Config, logger: Logger): Promise<Massnick> {
	const boss = new Boss(config, logger.child({ component: 'boss' }));
	const fleet = new Fleet({
		tokens: config.workerTokens,
		guildId: config.guildId,
		client: {
			apiUrl: config.apiUrl,
			restOffsetMs: config.rest.offsetMs,
			restTimeoutMs: config.rest.timeoutMs,
			restRetries: 0,
		},
		logger: logger.child({ component: 'fleet' }),
		invalidRequestBudget: config.safety.invalidRequestBudget,
	});
	const started = await Promise.allSettled([boss.start(), fleet.start()]);
	const failures = started.flatMap((result) => (result.status === 'rejected' ? [result.reason as Error] : []));
	if (failures.length > 0) {
		await Promise.allSettled([boss.stop(), fleet.stop()]);
		if (failures.length === 1) throw failures[0];
		throw new AggregateError(failures, failures.map((failure) => failure.message).join('\n'));
	}
	// The boss has the Server Members intent (it could not log in otherwise); a worker whose
	// application has it too lists alongside, which only makes the listing faster.
	const listers = (): ListingClient[] => [
		{ rest: boss.client.rest, label: 'the boss' },
		...fleet.active.filter((worker) => worker.listsMembers).map((worker) => ({ rest: worker.client.rest, label: worker.label })),
	];
	// The boss's requests count towards the same per-address invalid-request limit as the workers'.
	fleet.guard.watch(boss.client.rest);
	const jobs = new JobManager({
		config,
		fleet,
		guildContext: () => boss.guildContext(),
		listers,
		actionOf: (header) =>
			actionOf(header, {
				nicknameMaxLength: config.nickname.maxLength,
				role: (id) => {
					const role = boss.guild.roles.cache.get(id);
					return role ? { id: role.id, name: role.name } : undefined;
				},
			}),
		logger: logger.child({ component: 'jobs' }),
	});
	boss.attach({ config, fleet, jobs, logger: logger.child({ component: 'commands' }) });
	let interrupted;
	try {
		interrupted = await jobs.interrupted();
	} catch (error) {
		await Promise.allSettled([boss.stop(), fleet.stop()]);
		throw error;
	}
	if (interrupted) {
		logger.warn(
			{ job: interrupted.header.jobId, title: interrupted.header.title },
			'a job did not finish last time; /status counts what is left, and running it again with the same target finishes it',
		);
	}
	const forgetRestored = async (): Promise<void> => {
		try {
			const deleted = await deleteRestoredJournals(config.dataDir, { deleteRestoredAfterDays: config.journal.deleteRestoredAfterDays });
			for (const journal of deleted) {
				logger.info({ journal: journalName(journal), restoredAt: journal.endedAt }, 'deleted a fully restored journal past journal.deleteRestoredAfterDays');
			}
		} catch (error) {
			logger.warn({ err: error }, 'could not check the journals for ones past their keep time');
		}
	};
	await forgetRestored();
	const daily = setInterval(() => void forgetRestored(), 24 * 60 * 60 * 1000).unref();
	logger.info({ workers: fleet.size, listing: ['the boss', ...fleet.workers.filter((worker) => worker.listsMembers).map((worker) => worker.label)] }, 'massnick is ready');
	return {
		boss,
		fleet,
		jobs,
		listers,
		async stop() {
			clearInterval(daily);
			await jobs.stop();
			await Promise.allSettled([boss.stop(), fleet.stop()]);
		},
	};
}
