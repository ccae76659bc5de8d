/**
 * Resolves once every promise callback already queued has run, and every one those queue in
 * turn: Node runs `setImmediate` callbacks only after the microtask queue is empty. For code
 * with no timers and no I/O (a queue, a latch) this is the point after which nothing more can
 * happen on its own, so a check that something did not happen is final there.
 */
export function flushPromises(): Promise<void> {
	return new Promise((resolve) => setImmediate(resolve));
}
