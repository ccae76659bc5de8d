import { RESTJSONErrorCodes, type APIRole } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { assertCanManageRole } from './assertCanManageRole.js';
import { DiscordHttpError } from './errors.js';
import { requireGuild } from './queryParams.js';
import { readReason } from './readReason.js';
import { requireMember } from './requireMember.js';
import type { Route, RouteRequest } from './Route.js';

/**
 * The role a member role route names. `@everyone` (id = guild id) is implicit in every member
 * and can be neither given nor taken: Discord answers it as it answers a role that does not
 * exist, 404/10011 Unknown Role.
 */
function requireRole(state: SandboxState, roleId: string): APIRole {
	const role = state.rolesById.get(roleId);
	if (!role || role.id === state.guildId) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownRole);
	return role;
}

/**
 * Giving or taking a role needs what acting on any role needs (see {@link assertCanManageRole}),
 * and never a managed role (a bot's own role, the booster role, an integration's), whoever asks:
 * 403/50013 as well. Unlike renaming, the member's own roles do not matter: a bot can give a role
 * below its own to someone ranked above it, the owner included.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
function assertCanGiveRole(state: SandboxState, app: SandboxApp, role: APIRole): void {
	if (role.managed) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
	assertCanManageRole(state, app, role);
}

/** Gives (`held`) or takes the role; 204 whether or not the member already had it. */
function changeRole(request: RouteRequest, held: boolean): { status: number } {
	const { state } = request.ctx;
	const app = request.app!;
	const guildId = requireGuild(state, request.params.guild);
	const target = requireMember(state, guildId, request.params.user!);
	const role = requireRole(state, request.params.role!);
	assertCanGiveRole(state, app, role);
	state.setMemberRole(target, role, held, { actorIndex: app.memberIndex, reason: readReason(request) });
	return { status: 204 };
}

/**
 * Add and Remove Guild Member Role: one role at a time, 204 without a body, GUILD_MEMBER_UPDATE
 * and an audit entry when the member's roles changed. Both share one rate-limit bucket per
 * token and guild (docs/role-routes.md).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#add-guild-member-role}
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-member-role}
 */
export const memberRoleRoutes: Route[] = [
	{
		method: 'PUT',
		path: '/guilds/:guild/members/:user/roles/:role',
		bucket: 'memberRole',
		auth: 'bot',
		major: 'guild',
		handle: (request) => changeRole(request, true),
	},
	{
		method: 'DELETE',
		path: '/guilds/:guild/members/:user/roles/:role',
		bucket: 'memberRole',
		auth: 'bot',
		major: 'guild',
		handle: (request) => changeRole(request, false),
	},
];
