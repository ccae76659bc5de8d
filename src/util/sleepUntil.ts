/** The longest delay `setTimeout` keeps (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves at the time `at` (Unix ms), however far ahead (a standing rule's `until` may be months
 * away, past what one timer holds), or at once when it has passed; resolves early, without
 * rejecting, when `signal` aborts.
 */
export function sleepUntil(at: number, signal: AbortSignal, now: () => number = Date.now): Promise<void> {
	return new Promise((resolve) => {
		let timer: NodeJS.Timeout | undefined;
		const done = (): void => {
			clearTimeout(timer);
			signal.removeEventListener('abort', done);
			resolve();
		};
		const arm = (): void => {
			const left = at - now();
			if (left <= 0) return done();
			timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
		};
		if (signal.aborted) return resolve();
		signal.addEventListener('abort', done, { once: true });
		arm();
	});
}
