import { sleep as defaultSleep } from '../util/sleep.js';
import { backoffDelay, classifyError, type ErrorClass } from './classifyError.js';

/** How often, and how patiently, a request that failed for a passing reason is tried again. */
export interface RetryPolicy {
	/** Tries in all, the first included. */
	readonly attempts: number;
	/** Backoff before the first retry; doubles each time, with full jitter (see {@link backoffDelay}). */
	readonly baseDelayMs: number;
	readonly maxDelayMs: number;
}

export interface RetryTransientOptions {
	retry: RetryPolicy;
	/** Cancels the retrying: a backoff that is still sleeping when it aborts ends as `aborted`. */
	signal?: AbortSignal | undefined;
	/**
	 * The signal the requests themselves carry: any failure once it has aborted is `aborted` (see
	 * {@link classifyError}). Defaults to `signal`; a slice gives its requests a grace period
	 * after cancel, so there the two differ.
	 */
	requestSignal?: AbortSignal | undefined;
	/**
	 * A failure the caller can route around at once, e.g. the listing drops a revoked token and
	 * pages with the next. Returning `true` tries again without a backoff and without counting an
	 * attempt, so it must change something each time. Not asked about `aborted`.
	 */
	retryAtOnce?: ((failure: ErrorClass, error: unknown) => boolean) | undefined;
	/** Told of each retry before its backoff: what failed, the retry's number (1 for the first) and the wait. */
	onRetry?: ((failure: ErrorClass & { kind: 'transient' }, retry: number, delayMs: number) => void) | undefined;
	/** Seams for tests. */
	sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
	random?: (() => number) | undefined;
}

/** How the retrying ended: `run`'s value, or the last failure, classified, with its error. */
export type Retried<T> = { ok: true; value: T } | { ok: false; failure: ErrorClass; error: unknown };

/**
 * Runs `run` until it succeeds, retrying the failures {@link classifyError} calls transient (5xx,
 * time-outs, dropped connections) with exponential backoff, up to `retry.attempts` tries in all.
 * Anything else (left, permanent, revoked, aborted) ends it at once, for the caller to count;
 * it never throws what `run` throws.
 *
 * discord.js waits out 429s itself, but retries a 5xx or a dropped connection only at once
 * (`rest.retries`, which workers set to 0): this is the retry with backoff and jitter, so a
 * minute of Discord trouble costs a few retries, not a failed member.
 */
export async function retryTransient<T>(run: () => Promise<T>, options: RetryTransientOptions): Promise<Retried<T>> {
	const { retry, signal, retryAtOnce } = options;
	const requestSignal = options.requestSignal ?? signal;
	const sleep = options.sleep ?? defaultSleep;
	for (let attempt = 0; ; ) {
		try {
			return { ok: true, value: await run() };
		} catch (error) {
			const failure = classifyError(error, requestSignal);
			if (failure.kind === 'aborted') return { ok: false, failure, error };
			if (retryAtOnce?.(failure, error) === true) continue;
			if (failure.kind !== 'transient' || attempt + 1 >= retry.attempts) return { ok: false, failure, error };
			const delayMs = backoffDelay(attempt, retry.baseDelayMs, retry.maxDelayMs, options.random);
			options.onRetry?.(failure, attempt + 1, delayMs);
			try {
				await sleep(delayMs, signal);
			} catch (reason) {
				return { ok: false, failure: { kind: 'aborted' }, error: reason };
			}
			attempt++;
		}
	}
}
