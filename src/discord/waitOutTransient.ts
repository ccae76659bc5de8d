import type { Logger } from 'pino';
import { type RetryPolicy, type RetryTransientOptions, retryTransient } from './retryTransient.js';

export interface WaitOutOptions {
	/** What is being done, for the log: "worker 2 logging in", "the boss registering its commands". */
	what: string;
	logger: Logger;
	/** The changes' backoff (`workers.retry`): its delays, not its attempts; a start waits as long as it takes. */
	retry: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>;
	/** Stops the waiting (SIGINT or SIGTERM during a start): the step's last error is thrown. */
	signal?: AbortSignal | undefined;
	sleep?: RetryTransientOptions['sleep'];
	random?: RetryTransientOptions['random'];
}

/** Thrown when a start was stopped (its signal aborted) while it waited out Discord. */
export class StartAborted extends Error {
	constructor(what: string, options?: ErrorOptions) {
		super(`stopped while waiting for Discord (${what})`, options);
		this.name = 'StartAborted';
	}
}

/**
 * Runs one step of a start (logging in, registering the commands, reading an application) until
 * it passes, waiting out what passes by itself: 5xx answers, time-outs and dropped connections,
 * with the same backoff and jitter as the changes, for as long as they last. Each wait is logged
 * (warn) with what failed and when the next try is. What will not pass (a rejected token, a
 * missing intent, a 4xx) is thrown at once, as the step threw it, for the caller to word.
 *
 * A Discord incident answers a share of every request with 500: a start that gave up on the first
 * would exit, and a supervisor that restarts it a few times a minute gives up on it for good.
 */
export async function waitOutTransient<T>(step: () => Promise<T>, options: WaitOutOptions): Promise<T> {
	const { what, logger, signal } = options;
	const retried = await retryTransient(step, {
		retry: { attempts: Number.POSITIVE_INFINITY, ...options.retry },
		signal,
		sleep: options.sleep,
		random: options.random,
		onRetry: (failure, retry, delayMs) =>
			logger.warn(
				{ what, reason: failure.reason, retry, retryInMs: delayMs },
				`waiting for Discord: ${what} failed (${failure.reason}); trying again in ${(delayMs / 1000).toFixed(1)} s`,
			),
	});
	if (retried.ok) return retried.value;
	if (retried.failure.kind === 'aborted') throw new StartAborted(what, { cause: retried.error });
	throw retried.error;
}
