import type { Sandbox } from '../../src/sandbox/startSandbox.js';

/**
 * Ids of members any of the sandbox's bots may rename, in id order: not the owner, not a bot,
 * and no role at or above the bots' highest.
 */
export function renamableMembers(sandbox: Sandbox, count = Number.POSITIVE_INFINITY): string[] {
	const { state } = sandbox;
	const botPosition = state.highestPosition(state.apps[0]!.memberIndex);
	const ids: string[] = [];
	for (const index of state.members.indices()) {
		if (ids.length >= count) break;
		if (!state.isOwner(index) && !state.members.isBot(index) && state.highestPosition(index) < botPosition) ids.push(state.members.idAt(index).toString());
	}
	return ids;
}
