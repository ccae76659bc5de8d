/**
 * Runs `run` with a signal of its own that follows `parent`, and unlinks it when `run` settles.
 *
 * @discordjs/rest adds an abort listener to the signal of every request and never removes it;
 * handing it one long-lived job signal would pile up a listener per rename (millions on a large
 * guild, each making the next `addEventListener` slower). A short-lived signal per request is
 * dropped with its listener.
 */
export async function withSignal<T>(parent: AbortSignal | undefined, run: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
	if (parent === undefined) return run(undefined);
	const controller = new AbortController();
	const onAbort = (): void => controller.abort(parent.reason);
	if (parent.aborted) onAbort();
	else parent.addEventListener('abort', onAbort, { once: true });
	try {
		return await run(controller.signal);
	} finally {
		parent.removeEventListener('abort', onAbort);
	}
}
