import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';
import type { Route } from './Route.js';

/**
 * Refuses an application whose bot is not (or no longer) a member of the guild a request is
 * about, as Discord does: `GET /guilds/{id}` answers 404/10004 Unknown Guild (Discord stopped
 * showing guilds to non-members in January 2023), anything inside the guild or its channels
 * 403/50001 Missing Access (see docs/discord.md). Routes about no guild (`/users/@me`,
 * `/applications/@me`, `/gateway/bot`) still work: the token is valid.
 */
export function requireGuildAccess(state: SandboxState, app: SandboxApp, route: Route, params: Record<string, string>): void {
	if (state.inGuild(app)) return;
	const aboutGuild = params.guild === state.guildId;
	const aboutChannel = params.channel === state.guild.channel.id;
	if (!aboutGuild && !aboutChannel) return;
	if (route.method === 'GET' && route.path === '/guilds/:guild') throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownGuild);
	throw DiscordHttpError.of(RESTJSONErrorCodes.MissingAccess);
}
