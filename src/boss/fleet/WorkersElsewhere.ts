import type { REST } from 'discord.js';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import type { WorkerSight } from '../bossGuildContext.js';
import { readWorkerBots } from './readWorkerBots.js';

/**
 * The workers other processes hold, as the boss knows them: each one's bot and its roles in the
 * guild now. Read once at start (see {@link readWorkerBots}) and kept current from the member
 * events the boss receives anyway (it has the Server Members intent).
 */
export class WorkersElsewhere {
	/** By bot user id: the worker and its bot's roles (`null`: not in the guild). */
	readonly #bots: Map<string, { worker: number; roles: readonly string[] | null }>;
	/**
	 * Workers of other processes whose bot is not known: `WORKER_TOKENS` does not list their
	 * tokens here, or one could not be read.
	 */
	readonly unknown: readonly number[];

	private constructor(bots: Map<string, { worker: number; roles: readonly string[] | null }>, unknown: readonly number[]) {
		this.#bots = bots;
		this.unknown = unknown;
	}

	/** None: the boss holds every worker. */
	static none(): WorkersElsewhere {
		return new WorkersElsewhere(new Map(), []);
	}

	/**
	 * Reads the bots of the workers `config` does not hold, with their tokens when `WORKER_TOKENS`
	 * lists every worker's; logs what could not be read and what that costs. Never throws for a
	 * worker: the boss starts anyway.
	 */
	static async read(config: Config, rest: REST, logger: Logger, signal?: AbortSignal): Promise<WorkersElsewhere> {
		const held = new Set(config.heldWorkers.map((worker) => worker.id));
		const others = Array.from({ length: config.workerCount }, (_, id) => id).filter((id) => !held.has(id));
		if (others.length === 0) return WorkersElsewhere.none();
		// WORKER_TOKENS lists every worker's token, or only the held ones'.
		const everyToken = config.workerTokens.length === config.workerCount;
		const { bots, problems } = await readWorkerBots({
			tokens: new Map(everyToken ? others.map((id) => [id, config.workerTokens[id]!] as const) : []),
			guildId: config.guildId,
			rest,
			apiUrl: config.apiUrl,
			restOffsetMs: config.rest.offsetMs,
			restTimeoutMs: config.rest.timeoutMs,
			patience: { logger, retry: config.workers.retry, signal },
		});
		for (const bot of bots) {
			if (bot.roles === null)
				logger.warn({ worker: bot.worker }, `worker ${bot.worker}'s bot is not in the guild: invite it with the link npm run doctor prints`);
		}
		for (const problem of problems) logger.warn({ worker: problem.worker }, problem.message);
		const known = new Set(bots.map((bot) => bot.worker));
		const unknown = others.filter((id) => !known.has(id));
		if (unknown.length > 0) {
			logger.warn(
				{ workers: unknown },
				everyToken
					? "these workers' bots could not be read: /stats and previews count them as members, and members at or above the workers' role as to do"
					: "the boss does not know the bots of the workers other processes hold: /stats and previews count them as members, and members at or above the workers' role as to do. Give the boss every worker's token in WORKER_TOKENS: it only reads each bot's id over REST, and never connects it",
			);
		}
		logger.info({ read: bots.map((bot) => bot.worker), unknown }, 'read the bots of the workers other processes hold');
		return new WorkersElsewhere(new Map(bots.map((bot) => [bot.userId, { worker: bot.worker, roles: bot.roles }])), unknown);
	}

	/** Each known bot, for the planner's view of the guild. */
	sights(): WorkerSight[] {
		return [...this.#bots].map(([userId, { roles }]) => ({ userId, roles }));
	}

	/** The roles of each known bot in the guild (none for one that is not there). */
	roles(): string[][] {
		return [...this.#bots.values()].flatMap(({ roles }) => (roles ? [[...roles]] : []));
	}

	/** A member event: a known bot's roles now (`null`: it left the guild); any other member is ignored. */
	memberIs(userId: string, roles: readonly string[] | null): void {
		const bot = this.#bots.get(userId);
		if (bot) this.#bots.set(userId, { worker: bot.worker, roles });
	}
}
