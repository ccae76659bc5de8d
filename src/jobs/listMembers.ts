import { type APIGuildMember, RESTJSONErrorCodes, Routes } from 'discord.js';
import type { MemberRecord } from '../discord/MemberRecord.js';
import { toMemberRecord } from '../discord/toMemberRecord.js';
import { ErrorCodes, JobError } from '../errors.js';
import { type ListMembersOptions, listPages } from './listPages.js';

export type { ListingClient, ListMembersOptions } from './listPages.js';

/** Discord's page size ceiling for List Guild Members. */
export const MEMBER_PAGE_SIZE = 1000;

/**
 * Streams a guild's members in id order, one page of up to 1000 at a time, as compact records.
 *
 * REST paging is used rather than the gateway's Request Guild Members: it needs no privileged
 * intent at identify, it is not held to Discord's one all-members request per guild per 30 s,
 * and it can pause (see {@link listPages} for the back-pressure and the rotation of tokens).
 * See https://discord.com/developers/docs/resources/guild#list-guild-members
 */
export function listMembers(options: ListMembersOptions): AsyncGenerator<MemberRecord[], void, undefined> {
	return listPages<APIGuildMember>(options, {
		route: Routes.guildMembers(options.guildId),
		pageSize: MEMBER_PAGE_SIZE,
		idOf: (member) => member.user.id,
		toRecord: toMemberRecord,
		error: listingError,
	});
}

function listingError(error: unknown, label: string, kind: string): JobError {
	const code = (error as { code?: unknown }).code;
	if (code === RESTJSONErrorCodes.MissingAccess) {
		return new JobError(
			ErrorCodes.MembersIntentDisabled,
			`${label} may not list the guild's members: switch on the Server Members intent for that bot in the Discord developer portal (Bot → Privileged Gateway Intents).`,
		);
	}
	if (kind === 'revoked') return new JobError(ErrorCodes.TokenRejected, `${label}'s token was rejected by Discord while listing members.`);
	return new JobError(ErrorCodes.ListingFailed, `Listing the guild's members failed (${label}): ${(error as Error).message}`);
}
