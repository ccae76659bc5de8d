/**
 * Polls `check` until it holds, instead of sleeping a fixed time and hoping. Throws, naming what
 * it waited for, once `timeoutMs` has passed.
 */
export async function waitUntil(check: () => Promise<boolean> | boolean, options: { timeoutMs?: number; what?: string; everyMs?: number } = {}): Promise<void> {
	const { timeoutMs = 30_000, what = 'the condition', everyMs = 25 } = options;
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
