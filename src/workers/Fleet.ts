import type { Logger } from 'pino';
import type { ClientOptions } from '../discord/createClient.js';
import { InvalidRequestGuard } from '../discord/InvalidRequestGuard.js';
import { SharedWritePacer } from '../discord/SharedWritePacer.js';
import { ErrorCodes, MassnickError } from '../errors.js';
import { chooseFleetScope } from './chooseFleetScope.js';
import type { FleetScope } from './FleetScope.js';
import { Worker, type WorkerOptions } from './Worker.js';

export interface FleetOptions {
	/**
	 * N, the workers the guild is split between (this process's and any others'): worker `i` owns
	 * the members with `(id >> 22) % N === i`. Default: one per entry of `workers`.
	 */
	count?: number;
	/** The workers this process holds: each one's id among `count`, and its token. */
	workers: ReadonlyArray<{ id: number; token: string }>;
	guildId: string;
	client: Omit<ClientOptions, 'intents'>;
	logger: Logger;
	/** The backoff each worker's start waits out Discord with (`workers.retry`). */
	startRetry: WorkerOptions['startRetry'];
	/** Invalid responses (401, 403, 429) allowed per 10 minutes across the whole process. */
	invalidRequestBudget: number;
	/**
	 * Whether the workers share the guild's rate once Discord caps its writes (a 429 with scope
	 * `shared`), instead of each asking at its own pace (`workers.paceSharedLimit`). Default: on.
	 */
	paceSharedLimit?: boolean | undefined;
}

/** Raised when some workers could not start; lists each one's problem. */
export class FleetStartError extends MassnickError {
	constructor(readonly failures: ReadonlyArray<{ worker: number; error: Error }>) {
		const lines = failures.map(({ error }) => `- ${error.message}`);
		super(
			(failures[0]?.error as MassnickError | undefined)?.code ?? 'CONNECT_FAILED',
			[`${failures.length} of the workers could not start:`, ...lines].join('\n'),
		);
	}
}

/**
 * The worker bots of one process, by their ids among `count`: all N by default, or some of them
 * ("workers 3 to 5 of 10"), as `@discordjs/ws` takes `shardCount` and `shardIds`. Worker `i` owns
 * the members with `(id >> 22) % count === i` wherever it runs, so every process works out the
 * same split alone and takes only its own workers' members.
 */
export class Fleet {
	/** N: how many workers split the guild, in this process and any others. */
	readonly count: number;
	/** This process's workers, lowest id first; `worker.index` is its id among {@link count}. */
	readonly workers: readonly Worker[];
	readonly guard: InvalidRequestGuard;
	/** The workers' shared pace under a guild-wide write cap; none when `paceSharedLimit` is off. */
	readonly pacer: SharedWritePacer | undefined;
	/**
	 * Every worker or some of them, and what follows from it (which journal files are ours, whether
	 * a restart resumes here, how to name the workers here): chosen here, once.
	 */
	readonly scope: FleetScope;
	readonly #byId: ReadonlyMap<number, Worker>;

	constructor(options: FleetOptions) {
		const held = options.workers;
		this.count = options.count ?? held.length;
		for (const { id } of held) {
			if (!Number.isSafeInteger(id) || id < 0 || id >= this.count) {
				throw new MassnickError(ErrorCodes.InvalidArgument, `worker ${id} is not one of the ${this.count} workers (ids 0 to ${this.count - 1})`);
			}
		}
		if (new Set(held.map(({ id }) => id)).size !== held.length) throw new MassnickError(ErrorCodes.InvalidArgument, 'a worker id is held twice');
		this.guard = new InvalidRequestGuard(options.invalidRequestBudget);
		// A write held at the wire past discord.js's time-out, less the answer's time, would time out.
		const { restTimeoutMs } = options.client;
		const maxWireWaitMs = Math.max(restTimeoutMs / 2, restTimeoutMs - 3000);
		this.pacer = options.paceSharedLimit === false ? undefined : new SharedWritePacer({ logger: options.logger, maxWireWaitMs });
		this.workers = [...held]
			.sort((a, b) => a.id - b.id)
			.map(
				({ id, token }) =>
					new Worker({
						index: id,
						token,
						guildId: options.guildId,
						client: options.client,
						logger: options.logger.child({ worker: id }),
						startRetry: options.startRetry,
						pacer: this.pacer,
					}),
			);
		this.scope = chooseFleetScope(this.count, this.ids);
		this.#byId = new Map(this.workers.map((worker) => [worker.index, worker]));
		for (const worker of this.workers) this.guard.watch(worker.client.rest);
	}

	/** How many workers this process holds (all {@link count} of them unless split over processes). */
	get size(): number {
		return this.workers.length;
	}

	/** The ids this process holds, lowest first. */
	get ids(): number[] {
		return this.workers.map((worker) => worker.index);
	}

	/** The worker with id `id`, if this process holds it. */
	get(id: number): Worker | undefined {
		return this.#byId.get(id);
	}

	/** Workers that can take work now (not revoked or stopped). */
	get active(): Worker[] {
		return this.workers.filter((worker) => worker.state === 'ready' || worker.state === 'reconnecting');
	}

	/**
	 * Starts every worker at once, each waiting out Discord's passing failures until `signal`
	 * aborts; if any fails, stops the rest and reports every failure.
	 */
	async start(signal?: AbortSignal): Promise<void> {
		const results = await Promise.allSettled(this.workers.map((worker) => worker.start(signal)));
		const failures = results.flatMap((result, place) =>
			result.status === 'rejected' ? [{ worker: this.workers[place]!.index, error: result.reason as Error }] : [],
		);
		if (failures.length > 0) {
			await this.stop();
			throw new FleetStartError(failures);
		}
	}

	async stop(): Promise<void> {
		this.pacer?.close();
		await Promise.allSettled(this.workers.map((worker) => worker.stop()));
	}
}
