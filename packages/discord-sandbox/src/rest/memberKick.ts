import { PermissionFlagsBits } from 'discord-api-types/v10';
import { kickMember } from '../state/kickMember.js';
import { assertCanModerate } from './assertCanModerate.js';
import { requireGuild } from './queryParams.js';
import { readReason } from './readReason.js';
import { requireMember } from './requireMember.js';
import type { Route } from './Route.js';

/**
 * Remove Guild Member (a kick): Kick Members and the hierarchy (403/50013), 404/10007 for someone
 * who is not a member, 204 and GUILD_MEMBER_REMOVE otherwise, with a MEMBER_KICK audit entry.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-member}
 */
export const memberKickRoutes: Route[] = [
	{
		method: 'DELETE',
		path: '/guilds/:guild/members/:user',
		bucket: 'memberKick',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { state } = request.ctx;
			const app = request.app!;
			const guildId = requireGuild(state, request.params.guild);
			const target = requireMember(state, guildId, request.params.user!);
			assertCanModerate(state, app, target, PermissionFlagsBits.KickMembers);
			kickMember(state, target, { actorIndex: app.memberIndex, reason: readReason(request) });
			return { status: 204 };
		},
	},
];
