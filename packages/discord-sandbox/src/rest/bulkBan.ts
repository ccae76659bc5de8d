import { PermissionFlagsBits, RESTJSONErrorCodes, type RESTPostAPIGuildBulkBanResult } from 'discord-api-types/v10';
import type { SandboxContext } from '../SandboxContext.js';
import { banUser } from '../state/banUser.js';
import type { SandboxApp } from '../state/SandboxApp.js';
import { isSnowflake } from '../state/snowflake.js';
import { canModerate } from './assertCanModerate.js';
import { countNonMemberBan } from './countNonMemberBan.js';
import { DiscordHttpError } from './errors.js';
import { requireGuild } from './queryParams.js';
import { readBulkBanBody } from './readBanBody.js';
import { readReason } from './readReason.js';
import { requirePermissions } from './requirePermissions.js';
import type { Route } from './Route.js';

/** Discord's most users in one bulk ban. */
const MAX_USERS = 200;
const NEEDS = PermissionFlagsBits.BanMembers | PermissionFlagsBits.ManageGuild;

/** `user_ids`: required, at most 200, every one a snowflake; 400/50035 otherwise. Duplicates count once. */
function readUserIds(fields: Record<string, unknown>): bigint[] {
	const ids = fields.user_ids;
	if (ids === undefined || ids === null) throw DiscordHttpError.invalidField('user_ids', { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
	if (!Array.isArray(ids)) throw DiscordHttpError.invalidField('user_ids', { code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' });
	if (ids.length > MAX_USERS)
		throw DiscordHttpError.invalidField('user_ids', { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_USERS} or fewer in length.` });
	const bad = ids.flatMap((id, n) => (typeof id === 'string' && isSnowflake(id) ? [] : [[n, id] as const]));
	if (bad.length > 0)
		throw DiscordHttpError.invalidFields(
			bad.map(([n, id]) => [`user_ids.${n}`, { code: 'NUMBER_TYPE_COERCE', message: `Value "${String(id)}" is not snowflake.` }]),
		);
	return [...new Set(ids as string[])].map((id) => BigInt(id));
}

/**
 * Bans each user it can and says which it could not, as Discord does (MinnDevelopment's notes on
 * discord-api-docs #6720): a user banned already, a member out of the bot's reach, an unknown user
 * and a non-member past the non-member ban limit go to `failed_users`; the bot itself is left out
 * of both lists. When every user failed the whole call fails: 400/30035 if the limit is why
 * (so a bot can stop and say so), else 400/500000 Failed to ban users. Only the bot alone is an
 * empty 200 (discord-api-docs #7437).
 */
function bulkBan(ctx: SandboxContext, app: SandboxApp, guildId: string, ids: readonly bigint[], reason: string | null): RESTPostAPIGuildBulkBanResult {
	const { state } = ctx;
	const result: RESTPostAPIGuildBulkBanResult = { banned_users: [], failed_users: [] };
	let limited = false;
	for (const userId of ids) {
		const index = state.members.slotOf(userId);
		if (index === app.memberIndex) continue;
		let banned = false;
		if (index !== -1 && !state.bans.has(userId)) {
			const member = !state.members.isRemoved(index);
			const allowed = member ? canModerate(state, app, index, PermissionFlagsBits.BanMembers) : countNonMemberBan(ctx, guildId);
			if (!member && !allowed) limited = true;
			banned = allowed && banUser(state, index, { actorIndex: app.memberIndex, reason });
		}
		(banned ? result.banned_users : result.failed_users).push(userId.toString());
	}
	if (result.banned_users.length === 0 && result.failed_users.length > 0)
		throw DiscordHttpError.of(limited ? RESTJSONErrorCodes.MaximumNumberOfNonGuildMemberBansHasBeenExceeded : RESTJSONErrorCodes.FailedToBanUsers);
	return result;
}

/**
 * Bulk Guild Ban: up to 200 users a call, with Ban Members and Manage Guild both (403/50013
 * without either), the `X-Audit-Log-Reason` on every ban's audit entry.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#bulk-guild-ban}
 */
export const bulkBanRoutes: Route[] = [
	{
		method: 'POST',
		path: '/guilds/:guild/bulk-ban',
		bucket: 'bulkBan',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { ctx } = request;
			const app = request.app!;
			const guildId = requireGuild(ctx.state, request.params.guild);
			const ids = readUserIds(readBulkBanBody(request.body));
			requirePermissions(ctx.state, app, NEEDS);
			return { status: 200, body: bulkBan(ctx, app, guildId, ids, readReason(request)) };
		},
	},
];
