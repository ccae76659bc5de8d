/** Runs `run` after `ms`, and returns what cancels it: the seam a test drives by hand. */
export type Timer = (run: () => void, ms: number) => () => void;

/** Node's timers, unref'd: a re-check waiting is no reason to keep the process up. */
export const nodeTimer: Timer = (run, ms) => {
	const timer = setTimeout(run, ms);
	timer.unref();
	return () => clearTimeout(timer);
};

export interface RecheckScheduleOptions {
	/** How long a burst of events is gathered into one re-check (a role moved shifts every role between). */
	readonly settleMs: number;
	/** How often a re-check runs with no event at all: the net under a missed gateway event. */
	readonly everyMs: number;
	/** Told of a re-check that threw; the schedule goes on. */
	readonly failed: (error: unknown) => void;
	readonly timer?: Timer | undefined;
}

/**
 * When the standing rules' requesters are re-checked: `settleMs` after the first of a burst of
 * events (every event of the burst is in that one re-check), again after a re-check under way if
 * an event came meanwhile, and every `everyMs` in any case. One re-check at a time.
 */
export class RecheckSchedule {
	readonly #recheck: () => Promise<unknown>;
	readonly #options: RecheckScheduleOptions;
	readonly #timer: Timer;
	#due: (() => void) | undefined;
	#running: Promise<void> | undefined;
	#again = false;
	#cancelEvery: () => void;
	#stopped = false;

	constructor(recheck: () => Promise<unknown>, options: RecheckScheduleOptions) {
		this.#recheck = recheck;
		this.#options = options;
		this.#timer = options.timer ?? nodeTimer;
		this.#cancelEvery = this.#every();
	}

	/** Something may have changed: a re-check within `settleMs`, or after the one under way. */
	soon(): void {
		if (this.#stopped) return;
		if (this.#running) {
			this.#again = true;
			return;
		}
		this.#due ??= this.#timer(() => {
			this.#due = undefined;
			this.#run();
		}, this.#options.settleMs);
	}

	/** Resolves once no re-check is under way (a shutdown waits for it before the client goes). */
	async settled(): Promise<void> {
		while (this.#running) await this.#running;
	}

	/** No re-check from now on; the one under way, if any, ends by itself. */
	stop(): void {
		this.#stopped = true;
		this.#due?.();
		this.#due = undefined;
		this.#cancelEvery();
	}

	#every(): () => void {
		return this.#timer(() => {
			this.#cancelEvery = this.#every();
			this.soon();
		}, this.#options.everyMs);
	}

	#run(): void {
		this.#running = this.#recheck()
			.then(
				() => undefined,
				(error: unknown) => this.#options.failed(error),
			)
			.finally(() => {
				this.#running = undefined;
				if (!this.#again) return;
				this.#again = false;
				this.soon();
			});
	}
}
