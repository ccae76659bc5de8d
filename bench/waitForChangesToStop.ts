import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestTally } from './RequestTally.js';
import type { Subject } from './Subject.js';

const POLL_MS = 200;

/**
 * Waits until the subject's changes stop: no new one in the sandbox's log for `quietMs` (several
 * rate-limit windows: a worker with members left never waits more than one). `true` when they
 * stopped, `false` when `timeoutMs` passed first or the subject exited.
 */
export async function waitForChangesToStop(
	subject: Subject,
	tally: RequestTally,
	{ quietMs, timeoutMs }: { quietMs: number; timeoutMs: number },
): Promise<boolean> {
	const deadline = Date.now() + timeoutMs;
	let seen = tally.changedAt.length;
	let quietSince = Date.now();
	while (Date.now() < deadline) {
		await sleep(POLL_MS);
		if (!subject.running) return false;
		await tally.poll();
		if (tally.changedAt.length !== seen) {
			seen = tally.changedAt.length;
			quietSince = Date.now();
		} else if (Date.now() - quietSince >= quietMs) return true;
	}
	return false;
}
