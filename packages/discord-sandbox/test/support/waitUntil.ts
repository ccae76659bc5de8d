import { vi } from 'vitest';

/** Polls `check` (with vitest's `vi.waitFor`) until it holds; the error names what it waited for. */
export function waitUntil(check: () => Promise<boolean> | boolean, options: { timeoutMs?: number; what?: string; everyMs?: number } = {}): Promise<void> {
	const { timeoutMs = 30_000, what = 'the condition', everyMs = 25 } = options;
	return vi.waitFor(
		async () => {
			if (!(await check())) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
		},
		{ timeout: timeoutMs, interval: everyMs },
	);
}
