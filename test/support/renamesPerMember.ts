import type { SandboxRequest } from '@massnick/discord-sandbox';

/** The route of Modify Guild Member, as the sandbox's request log names it. */
export const MEMBER_PATCH = '/guilds/:id/members/:id';

/** The Modify Guild Member requests in a stretch of the sandbox's request log. */
export function memberPatches(requests: readonly SandboxRequest[]): SandboxRequest[] {
	return requests.filter((request) => request.method === 'PATCH' && request.route === MEMBER_PATCH);
}

/** Member id → how many Modify Guild Member requests were answered 200 for them in `requests`. */
export function renamesPerMember(requests: readonly SandboxRequest[]): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of memberPatches(requests)) {
		if (request.status === 200 && request.targetId) counts.set(request.targetId, (counts.get(request.targetId) ?? 0) + 1);
	}
	return counts;
}

/** Members renamed (a PATCH answered 200) more than once in `requests`: give it one job's stretch of the log. */
export function renamedTwice(requests: readonly SandboxRequest[]): string[] {
	return [...renamesPerMember(requests)].filter(([, count]) => count > 1).map(([id]) => id);
}
