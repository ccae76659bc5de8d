import { type APIBan, RESTJSONErrorCodes, Routes } from 'discord.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { ErrorCodes, JobError } from '../errors.js';
import { type ListMembersOptions, listPages } from './listPages.js';

/** Discord's page size ceiling for Get Guild Bans. */
export const BAN_PAGE_SIZE = 1000;

/**
 * Streams a guild's bans in user id order, a page of up to 1000 at a time, each as the record of
 * a user who is no member (`banned: true`, no nickname, no roles): what the undo of a ban plans
 * from, since a banned user is in no member list. Needs Ban Members, which the workers of a ban
 * job hold; the members intent plays no part.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#get-guild-bans}
 */
export function listBans(options: ListMembersOptions): AsyncGenerator<MemberRecord[], void, undefined> {
	return listPages<APIBan>(options, {
		route: Routes.guildBans(options.guildId),
		pageSize: BAN_PAGE_SIZE,
		idOf: (ban) => ban.user.id,
		toRecord: ({ user }) => ({
			id: user.id,
			username: user.username,
			globalName: user.global_name ?? null,
			nick: null,
			roles: [],
			bot: user.bot === true,
			banned: true,
		}),
		error: banListingError,
	});
}

function banListingError(error: unknown, label: string, kind: string): JobError {
	const code = (error as { code?: unknown }).code;
	if (code === RESTJSONErrorCodes.MissingPermissions) {
		return new JobError(
			ErrorCodes.MissingPermission,
			`${label} may not read the guild's ban list: give the workers' role Ban Members (Server Settings → Roles), then run it again.`,
			{ context: { permission: 'Ban Members' } },
		);
	}
	if (kind === 'revoked') return new JobError(ErrorCodes.TokenRejected, `${label}'s token was rejected by Discord while listing bans.`);
	return new JobError(ErrorCodes.ListingFailed, `Listing the guild's bans failed (${label}): ${(error as Error).message}`);
}
