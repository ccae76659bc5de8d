import type { REST } from 'discord.js';
import type { Logger } from 'pino';
import { SharedLimitPacing, type SharedLimitPacingOptions, type SharedLimitState } from './SharedLimitPacing.js';

/** Lets a change through when the guild has room for it; the slices wait on it (see {@link SharedWritePacer.admission}). */
export interface WriteAdmission {
	/** Resolves with a release once this write may be handed to discord.js; call the release when it is answered. */
	admit(signal?: AbortSignal): Promise<() => void>;
}

export interface SharedWritePacerOptions extends SharedLimitPacingOptions {
	/** Told when the pace changes (starts, learns a cap, ends). */
	logger?: Logger | undefined;
	/**
	 * The longest a request waits at the wire (discord.js's `rest.timeout` runs meanwhile): past it,
	 * it goes anyway, and a refusal is discord.js's to wait out.
	 */
	maxWireWaitMs: number;
}

/** Writes of one worker handed to discord.js at once while paced. */
export const ADMITTED_PER_WORKER = 2;

interface WireWaiter {
	readonly deadline: number;
	readonly resolve: () => void;
	readonly reject: (reason: unknown) => void;
	readonly signal: AbortSignal | undefined;
}

/**
 * One process's pace for its workers' writes under a guild-wide cap: every worker's REST client
 * reports its answers here, and every write waits its turn twice, once before a slice hands it to
 * discord.js ({@link admission}, which keeps discord.js's queues short while paced) and once at the wire
 * ({@link beforeWrite}, which spaces the writes that leave, discord.js's own retries included).
 * While the guild has not refused a write with scope `shared`, neither waits.
 *
 * What the pace is, and how it is learnt and lifted, is {@link SharedLimitPacing}'s. A process knows
 * only its own writes: pods of a fleet each learn the cap alone (docs/performance.md).
 */
export class SharedWritePacer {
	readonly pacing: SharedLimitPacing;
	readonly #now: () => number;
	readonly #logger: Logger | undefined;
	readonly #maxWireWaitMs: number;
	readonly #wire: WireWaiter[] = [];
	#timer: NodeJS.Timeout | undefined;
	/** Each worker's admission, woken when the pacing ends (every waiting write may go then). */
	readonly #admissions = new Set<() => void>();
	#wasPacing = false;
	#last: SharedLimitState | undefined;

	constructor(options: SharedWritePacerOptions) {
		this.#now = options.now ?? Date.now;
		this.pacing = new SharedLimitPacing(options);
		this.#logger = options.logger;
		this.#maxWireWaitMs = options.maxWireWaitMs;
	}

	/** Learns from a client's answers: its writes that got through, and the guild's shared 429s. */
	watch(rest: REST): void {
		rest.on('response', (request, response) => {
			if (!isWrite(request.method)) return;
			if (response.status === 429) {
				if (response.headers.get('x-ratelimit-scope') !== 'shared') return;
				const retryAfterMs = Number(response.headers.get('retry-after')) * 1000;
				if (this.pacing.refused(Number.isFinite(retryAfterMs) ? retryAfterMs : 0)) this.#changed();
			} else if (response.status < 500) {
				this.pacing.wrote();
				this.#changed();
			}
		});
	}

	/** For discord.js's `makeRequest`: a write waits for its turn on the wire; reads never wait. */
	beforeWrite(method: string | undefined, signal?: AbortSignal): Promise<void> {
		if (!isWrite(method)) return Promise.resolve();
		if (this.#wire.length === 0 && this.pacing.sendAt() <= this.#now()) {
			this.pacing.sent();
			return Promise.resolve();
		}
		return new Promise((resolve, reject) => {
			this.#wire.push({ deadline: this.#now() + this.#maxWireWaitMs, resolve, reject, signal });
			signal?.addEventListener('abort', () => this.#pumpWire(), { once: true });
			this.#pumpWire();
		});
	}

	/**
	 * A worker's own way in: while paced, at most {@link ADMITTED_PER_WORKER} of its writes are in
	 * discord.js at once (one on the wire, one ready behind it), so a refusal finds few queued behind
	 * it, and a worker whose own bucket is spent holds no more than that of the process's turns.
	 */
	admission(): WriteAdmission {
		let admitted = 0;
		const waiters: Array<() => void> = [];
		const room = (): boolean => admitted < (this.pacing.pacing ? ADMITTED_PER_WORKER : Number.POSITIVE_INFINITY);
		const wakeAll = (): void => {
			for (const wake of waiters.splice(0)) wake();
		};
		this.#admissions.add(wakeAll);
		return {
			admit: async (signal) => {
				while (!room()) {
					signal?.throwIfAborted();
					await new Promise<void>((resolve) => {
						const wake = (): void => {
							signal?.removeEventListener('abort', wake);
							resolve();
						};
						waiters.push(wake);
						signal?.addEventListener('abort', wake, { once: true });
					});
				}
				signal?.throwIfAborted();
				admitted++;
				let released = false;
				return () => {
					if (released) return;
					released = true;
					admitted--;
					waiters.shift()?.();
				};
			},
		};
	}

	/** Stops the wire's timer (the process is stopping); writes still waiting go at once. */
	close(): void {
		clearTimeout(this.#timer);
		for (const waiter of this.#wire.splice(0)) waiter.resolve();
	}

	#changed(): void {
		const state = this.pacing.state;
		if (state && !this.#wasPacing) {
			this.#logger?.warn(
				{ limit: state.limit, windowMs: Math.round(state.windowMs) },
				'Discord caps writes to the whole guild (429, scope shared): the workers share its rate from now on',
			);
		} else if (!state && this.#wasPacing) {
			this.#logger?.info('the guild took more writes than its last cap: the workers go at their own pace again');
		}
		if (state && (state.limit !== this.#last?.limit || state.factor !== this.#last.factor)) {
			this.#logger?.debug({ limit: state.limit, windowMs: Math.round(state.windowMs), factor: state.factor }, 'shared write pace');
		}
		this.#last = state;
		this.#wasPacing = state !== undefined;
		this.#pumpWire();
		if (!state) for (const wakeAll of this.#admissions) wakeAll();
	}

	#pumpWire(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
		while (this.#wire.length > 0) {
			const head = this.#wire[0]!;
			if (head.signal?.aborted) {
				this.#wire.shift();
				head.reject(head.signal.reason);
				continue;
			}
			const now = this.#now();
			const at = Math.min(this.pacing.sendAt(), head.deadline);
			if (at > now) {
				this.#timer = setTimeout(() => this.#pumpWire(), at - now);
				// The requests waiting keep their own sockets and timers; this one holds no process up.
				this.#timer.unref();
				return;
			}
			this.#wire.shift();
			this.pacing.sent();
			head.resolve();
		}
	}
}

function isWrite(method: string | undefined): boolean {
	const upper = (method ?? 'GET').toUpperCase();
	return upper !== 'GET' && upper !== 'HEAD';
}
