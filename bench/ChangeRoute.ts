/**
 * What the benchmark counts as one change a subject made: one request of `method` on `route`
 * (the sandbox's request log names routes with ids generalised) answered `status`. Each subject
 * names its own, so the same tally, window and ceiling measure every action.
 */
export interface ChangeRoute {
	readonly method: string;
	readonly route: string;
	readonly status: number;
}

/**
 * Modify Guild Member with a member id (not `@me`), answered 200: a rename.
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export const RENAME: ChangeRoute = { method: 'PATCH', route: '/guilds/:id/members/:id', status: 200 };

/**
 * Add Guild Member Role, answered 204: a role given.
 * @see {@link https://discord.com/developers/docs/resources/guild#add-guild-member-role}
 */
export const ROLE_ADD: ChangeRoute = { method: 'PUT', route: '/guilds/:id/members/:id/roles/:id', status: 204 };

/** `PATCH /guilds/:id/members/:id 200`, as the report and the results file name a change. */
export function describeChange(change: ChangeRoute): string {
	return `${change.method} ${change.route} ${change.status}`;
}
