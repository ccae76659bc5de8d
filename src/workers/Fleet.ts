import type { Logger } from 'pino';
import type { ClientOptions } from '../discord/createClient.js';
import { InvalidRequestGuard } from '../discord/InvalidRequestGuard.js';
import { MassnickError } from '../errors.js';
import { Worker } from './Worker.js';

export interface FleetOptions {
	tokens: readonly string[];
	guildId: string;
	client: Omit<ClientOptions, 'intents'>;
	logger: Logger;
	/** Invalid responses (401, 403, 429) allowed per 10 minutes across the whole process. */
	invalidRequestBudget: number;
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
 * The N worker bots of one process. Worker `i` owns the members with `(id >> 22) % N === i`,
 * where N is the number of tokens configured, so every worker works out its slice alone.
 */
export class Fleet {
	readonly workers: readonly Worker[];
	readonly guard: InvalidRequestGuard;

	constructor(options: FleetOptions) {
		this.guard = new InvalidRequestGuard(options.invalidRequestBudget);
		this.workers = options.tokens.map(
			(token, index) =>
				new Worker({
					index,
					token,
					guildId: options.guildId,
					client: options.client,
					logger: options.logger.child({ worker: index }),
				}),
		);
		for (const worker of this.workers) this.guard.watch(worker.client.rest);
	}

	get size(): number {
		return this.workers.length;
	}

	/** Workers that can take work now (not revoked or stopped). */
	get active(): Worker[] {
		return this.workers.filter((worker) => worker.state === 'ready' || worker.state === 'reconnecting');
	}

	/** Starts every worker at once; if any fails, stops the rest and reports every failure. */
	async start(): Promise<void> {
		const results = await Promise.allSettled(this.workers.map((worker) => worker.start()));
		const failures = results.flatMap((result, worker) =>
			result.status === 'rejected' ? [{ worker, error: result.reason as Error }] : [],
		);
		if (failures.length > 0) {
			await this.stop();
			throw new FleetStartError(failures);
		}
	}

	async stop(): Promise<void> {
		await Promise.allSettled(this.workers.map((worker) => worker.stop()));
	}
}
