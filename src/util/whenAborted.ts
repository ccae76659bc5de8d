/** Resolves when `signal` aborts (at once if it already has); never rejects. */
export function whenAborted(signal: AbortSignal): Promise<void> {
	if (signal.aborted) return Promise.resolve();
	return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
