import { REST, type RESTOptions, type RequestData, type RouteLike } from 'discord.js';
import { type WaitOutOptions, waitOutTransient } from './waitOutTransient.js';

/** How a one-shot reader waits out Discord: whose requests (for the log), the backoff and the logger. */
export type Patience = Omit<WaitOutOptions, 'what'> & { label: string };

/**
 * A REST client whose GETs wait out transient failures (5xx, time-outs, dropped connections) with
 * the changes' backoff, as long as they last, logging each wait; anything else is thrown at once.
 * For readers that run once and then end, such as `npm run doctor`, whose every read must reach
 * an answer; a job's requests keep their own retry policy, which a cancel can stop.
 */
export class PatientRest extends REST {
	readonly #patience: Patience;

	constructor(options: Partial<RESTOptions>, patience: Patience) {
		super(options);
		this.#patience = patience;
	}

	override get(fullRoute: RouteLike, options?: RequestData): Promise<unknown> {
		return waitOutTransient(() => super.get(fullRoute, options), { ...this.#patience, what: `${this.#patience.label} reading ${fullRoute}` });
	}
}
