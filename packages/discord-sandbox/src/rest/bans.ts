import { PermissionFlagsBits, RESTJSONErrorCodes, type APIBan } from 'discord-api-types/v10';
import { banUser, unbanUser } from '../state/banUser.js';
import type { SandboxState } from '../state/SandboxState.js';
import { assertCanModerate } from './assertCanModerate.js';
import { countNonMemberBan } from './countNonMemberBan.js';
import { DiscordHttpError } from './errors.js';
import { integerQuery, requireGuild, snowflakeQuery } from './queryParams.js';
import { readBanBody } from './readBanBody.js';
import { readReason } from './readReason.js';
import { requirePermissions } from './requirePermissions.js';
import type { Route } from './Route.js';

/** The ban of a user, as the ban routes return it. */
function banJson(state: SandboxState, userId: bigint): APIBan {
	const ban = state.bans.get(userId)!;
	return { user: state.userJson(ban.index), reason: ban.reason };
}

/**
 * The ban routes, each needing Ban Members (403/50013 without): list (sorted by user id, `limit` 1–1000 default 1000, `before` and `after` user
 * ids), get one (404/10026 Unknown Ban), ban (a member within the bot's reach, or a user who is no
 * member, up to the non-member ban limit: 400/30035 past it; 404/10013 for no such user; banning
 * someone banned already is a 204 that changes nothing) and unban (404/10026 when not banned).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#get-guild-bans}
 * @see {@link https://discord.com/developers/docs/resources/guild#create-guild-ban}
 */
export const banRoutes: Route[] = [
	{
		method: 'GET',
		path: '/guilds/:guild/bans',
		bucket: 'banList',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params, query }) {
			requireGuild(state, params.guild);
			requirePermissions(state, app!, PermissionFlagsBits.BanMembers);
			const limit = integerQuery(query, 'limit', { min: 1, max: 1000, fallback: 1000 });
			const page = state.bans.page({ limit, before: snowflakeQuery(query, 'before'), after: snowflakeQuery(query, 'after') });
			return { status: 200, body: page.map((ban) => banJson(state, ban.userId)) };
		},
	},
	{
		method: 'GET',
		path: '/guilds/:guild/bans/:user',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params }) {
			requireGuild(state, params.guild);
			requirePermissions(state, app!, PermissionFlagsBits.BanMembers);
			const userId = BigInt(params.user!);
			if (!state.bans.has(userId)) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownBan);
			return { status: 200, body: banJson(state, userId) };
		},
	},
	{
		method: 'PUT',
		path: '/guilds/:guild/bans/:user',
		bucket: 'memberBan',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { ctx, params } = request;
			const { state } = ctx;
			const app = request.app!;
			const guildId = requireGuild(state, params.guild);
			readBanBody(request.body);
			requirePermissions(state, app, PermissionFlagsBits.BanMembers);
			const userId = BigInt(params.user!);
			const index = state.members.slotOf(userId);
			if (index === -1) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownUser);
			if (state.bans.has(userId)) return { status: 204 };
			const member = !state.members.isRemoved(index);
			if (member) assertCanModerate(state, app, index, PermissionFlagsBits.BanMembers);
			else if (!countNonMemberBan(ctx, guildId)) throw DiscordHttpError.of(RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded);
			banUser(state, index, { actorIndex: app.memberIndex, reason: readReason(request) });
			return { status: 204 };
		},
	},
	{
		method: 'DELETE',
		path: '/guilds/:guild/bans/:user',
		bucket: 'memberUnban',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { state } = request.ctx;
			const app = request.app!;
			requireGuild(state, request.params.guild);
			requirePermissions(state, app, PermissionFlagsBits.BanMembers);
			if (!unbanUser(state, BigInt(request.params.user!), { actorIndex: app.memberIndex, reason: readReason(request) }))
				throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownBan);
			return { status: 204 };
		},
	},
];
