/**
 * A clock that stands still until the test moves it, for the sandbox's `now` option
 * (`startSandbox({ now: clock.now })`): a deadline test then checks the exact millisecond instead
 * of sleeping past it.
 */
export class ManualClock {
	#now: number;

	constructor(start = Date.now()) {
		this.#now = start;
	}

	/** The time in Unix ms; pass it as is, it is bound. */
	readonly now = (): number => this.#now;

	advance(ms: number): void {
		this.#now += ms;
	}
}
