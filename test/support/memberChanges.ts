import type { SandboxRequest } from '@massnick/discord-sandbox';

const MEMBER_ROUTE = '/guilds/:id/members/:id';
const MEMBER_ROLE_ROUTE = '/guilds/:id/members/:id/roles/:id';

/**
 * Whether a request of the sandbox's log changed a member: a nickname (Modify Guild Member) or a
 * role given or taken. Reading members, or a bot's own nickname (`@me`), is not a change.
 */
export function isMemberChange(request: SandboxRequest): boolean {
	if (request.route === MEMBER_ROUTE) return request.method === 'PATCH';
	return request.route === MEMBER_ROLE_ROUTE && (request.method === 'PUT' || request.method === 'DELETE');
}

/** One line per request, for an assertion's message: `PATCH /guilds/…/members/… 404 (10007)`. */
export function describeRequests(requests: readonly SandboxRequest[], limit = 5): string {
	const lines = requests
		.slice(0, limit)
		.map((request) => `${request.method} ${request.path} ${request.status}${request.code === null ? '' : ` (${request.code})`}`);
	if (requests.length > limit) lines.push(`… and ${requests.length - limit} more`);
	return lines.join('\n');
}
