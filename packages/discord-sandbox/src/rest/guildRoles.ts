import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { assertCanManageRole } from './assertCanManageRole.js';
import { DiscordHttpError } from './errors.js';
import { requireGuild } from './queryParams.js';
import { readReason } from './readReason.js';
import type { Route } from './Route.js';

/**
 * Delete Guild Role: MANAGE_ROLES and a role below the bot's highest (403/50013), 204 without a
 * body, GUILD_ROLE_DELETE, a ROLE_DELETE audit entry with the `X-Audit-Log-Reason`. A role that
 * does not exist is 404/10011 Unknown Role; `@everyone` and managed roles (a bot's, an
 * integration's, the booster role) cannot be deleted: 400/50028 Invalid Role, as Discord answers
 * `DELETE /guilds/{id}/roles/{guild id}` (17teen/Discord-Presser-Server-Nuker #31) and a managed
 * role (Jisagi/Discord-guild-copy #45). Its rate limit is not documented: the default bucket.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#delete-guild-role}
 */
export const guildRoleRoutes: Route[] = [
	{
		method: 'DELETE',
		path: '/guilds/:guild/roles/:role',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { state } = request.ctx;
			const app = request.app!;
			requireGuild(state, request.params.guild);
			const role = state.rolesById.get(request.params.role!);
			if (!role) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownRole);
			if (role.id === state.guildId || role.managed) throw DiscordHttpError.of(RESTJSONErrorCodes.InvalidRole);
			assertCanManageRole(state, app, role);
			state.deleteRole(role, { actorIndex: app.memberIndex, reason: readReason(request) });
			return { status: 204 };
		},
	},
];
