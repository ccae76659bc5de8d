import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxRequest } from '@massnick/discord-sandbox';
import type { ChangeRoute } from '../ChangeRoute.js';
import type { NodeChild } from '../NodeChild.js';
import type { SandboxProcess } from '../SandboxProcess.js';

/** Modify Guild Member answered 200: with `communication_disabled_until`, a timeout (the rule sends nothing else). */
export const TIMEOUT_CHANGE: ChangeRoute = { method: 'PATCH', route: '/guilds/:id/members/:id', status: 200 };

/** How often the request log is read while the rule works. */
const POLL_MS = 500;

/** Whether the sandbox answered `request` as one of the subject's timeouts. */
export function isTimeout(request: SandboxRequest, botIds: ReadonlySet<string>): boolean {
	return (
		request.botUserId !== null &&
		botIds.has(request.botUserId) &&
		request.method === TIMEOUT_CHANGE.method &&
		request.route === TIMEOUT_CHANGE.route &&
		request.status === TIMEOUT_CHANGE.status &&
		request.targetId !== null
	);
}

/**
 * Reads the sandbox's request log after `after` as the rule works, until a timeout of the
 * subject's tokens (`botIds`) has been answered for every one of `joiners`; then once more
 * after `settleMs`, for a second timeout of someone already done. Fails when massnick exits;
 * past `deadline` (Unix ms) it stops with what it has.
 *
 * @returns every request logged after `after`, and whether every joiner was reached by the deadline
 */
export async function collectTimeouts(
	sandbox: SandboxProcess,
	options: { after: number; joiners: ReadonlySet<string>; botIds: ReadonlySet<string>; child: NodeChild; deadline: number; settleMs: number },
): Promise<{ requests: SandboxRequest[]; complete: boolean }> {
	const requests: SandboxRequest[] = [];
	const reached = new Set<string>();
	let cursor = options.after;
	const readMore = async (): Promise<void> => {
		const { requests: page } = await sandbox.control.requests(cursor);
		for (const request of page) {
			requests.push(request);
			if (isTimeout(request, options.botIds) && options.joiners.has(request.targetId!)) reached.add(request.targetId!);
		}
		if (page.length > 0) cursor = page.at(-1)!.seq;
	};
	for (;;) {
		await readMore();
		if (reached.size >= options.joiners.size) break;
		if (!options.child.running) throw options.child.failure(`exited with ${options.joiners.size - reached.size} joiners not timed out`);
		if (Date.now() > options.deadline) return { requests, complete: false };
		await sleep(POLL_MS);
	}
	await sleep(options.settleMs);
	await readMore();
	return { requests, complete: true };
}
