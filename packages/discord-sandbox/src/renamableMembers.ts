import type { Sandbox } from './startSandbox.js';

/**
 * Ids of members any of the sandbox's bots may rename, in id order: not the owner, not a bot,
 * and no role at or above the bots' highest.
 */
export function renamableMembers(sandbox: Sandbox, count = Number.POSITIVE_INFINITY): string[] {
	return membersBelowBots(sandbox, count, (index) => !sandbox.state.members.isBot(index));
}

/**
 * Ids of members a job plans to change: those of {@link renamableMembers}, and the bots that are
 * not massnick's (Discord lets a bot rename another bot below it, and the planner leaves alone
 * only our own).
 */
export function changeableMembers(sandbox: Sandbox): string[] {
	const ours = new Set(sandbox.state.apps.map((app) => app.memberIndex));
	return membersBelowBots(sandbox, Number.POSITIVE_INFINITY, (index) => !ours.has(index));
}

function membersBelowBots(sandbox: Sandbox, count: number, keep: (index: number) => boolean): string[] {
	const { state } = sandbox;
	const botPosition = state.highestPosition(state.apps[0]!.memberIndex);
	const ids: string[] = [];
	for (const index of state.members.indices()) {
		if (ids.length >= count) break;
		if (!state.isOwner(index) && keep(index) && state.highestPosition(index) < botPosition) ids.push(state.members.idAt(index).toString());
	}
	return ids;
}
