import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeChild } from '../NodeChild.js';
import type { SandboxProcess } from '../SandboxProcess.js';

/** How /status lists a rule past its sweep (src/boss/status/showRules.ts). */
const FOLLOWING = /following joins/i;

/**
 * Asks /status as the owner, as a moderator would, until it lists a standing rule that follows
 * joins: the rule's sweep is over, and every timeout from now on is for a joiner.
 */
export async function waitForRuleFollowing(sandbox: SandboxProcess, child: NodeChild, timeoutMs: number): Promise<void> {
	const { control, info } = sandbox;
	const deadline = Date.now() + timeoutMs;
	let last = '';
	for (;;) {
		const id = await control.invoke(info.guildId, info.ownerId, 'status', {}, info.channelId);
		// The job's part first, then the rules' follow-up.
		const answered = await control.waitForResponses(id, 2, Math.max(1000, deadline - Date.now())).catch(() => control.interaction(id));
		last = JSON.stringify(answered.responses);
		if (FOLLOWING.test(last)) return;
		if (!child.running) throw child.failure('exited before its rule followed joins');
		if (Date.now() > deadline)
			throw child.failure(`listed no rule following joins in /status within ${timeoutMs / 1000} s; /status answered: ${last.slice(0, 600)}`);
		await sleep(500);
	}
}
