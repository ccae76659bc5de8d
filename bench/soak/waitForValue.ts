import { setTimeout as sleep } from 'node:timers/promises';

/** `read`'s first value that is not `undefined`, read once a second; past `timeoutMs`, an error naming `what`. */
export async function waitForValue<T>(read: () => Promise<T | undefined>, what: string, timeoutMs: number): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await read();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`soak: timed out waiting for ${what}`);
		await sleep(1000);
	}
}

/** Until `check` holds, checked once a second; past `timeoutMs`, an error naming `what`. */
export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
	await waitForValue(async () => ((await check()) ? true : undefined), what, timeoutMs);
}
