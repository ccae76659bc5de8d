import type { WorkQueue } from './WorkQueue.js';

/** The queue's next item, waiting for one; `undefined` once it is closed and drained, or `signal` aborts. */
export async function takeOrAbort<T>(queue: WorkQueue<T>, signal: AbortSignal): Promise<T | undefined> {
	const ready = queue.poll();
	if (ready !== undefined) return ready;
	if (signal.aborted) return undefined;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<undefined>((resolve) => {
		onAbort = () => resolve(undefined);
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		return await Promise.race([queue.take(), aborted]);
	} finally {
		signal.removeEventListener('abort', onAbort!);
	}
}
