import { PermissionFlagsBits, RESTJSONErrorCodes, type RESTPatchAPIGuildMemberJSONBody } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { timeoutMember } from '../state/timeoutMember.js';
import { assertCanTimeout, INVALID_TIMEOUT, MAX_TIMEOUT_MS } from './assertCanTimeout.js';
import { DiscordHttpError } from './errors.js';
import { integerQuery, requireGuild, snowflakeQuery } from './queryParams.js';
import { readFutureTimestamp } from './readFutureTimestamp.js';
import { readReason } from './readReason.js';
import { requireMember } from './requireMember.js';
import type { Route } from './Route.js';

/** Nicknames are 1–32 characters; the sandbox counts code points after trimming (see docs/discord.md). */
const MAX_NICK = 32;

/**
 * Guild member routes: list, get, the nickname edits massnick exists for, and timeouts
 * (`communication_disabled_until`, at most 28 days ahead; see {@link assertCanTimeout}).
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export const memberRoutes: Route[] = [
	{
		method: 'GET',
		path: '/guilds/:guild/members',
		bucket: 'memberList',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params, query }) {
			requireGuild(state, params.guild);
			// The intent must be switched on for the app; what it identified with doesn't matter.
			if (!app!.membersIntent) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingAccess);
			const limit = integerQuery(query, 'limit', { min: 1, max: 1000, fallback: 1 });
			const after = snowflakeQuery(query, 'after') ?? 0n;
			return { status: 200, body: state.members.page(after, limit).map((index) => state.memberJson(index)) };
		},
	},
	{
		method: 'PATCH',
		path: '/guilds/:guild/members/@me',
		bucket: 'memberEditMe',
		auth: 'bot',
		major: 'guild',
		handle(request) {
			const { state } = request.ctx;
			const app = request.app!;
			requireGuild(state, request.params.guild);
			request.setTarget(app.id);
			const nick = readNick(request.body);
			if ((state.permissions(app.memberIndex) & PermissionFlagsBits.ChangeNickname) === 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
			if (nick !== undefined) state.setNick(app.memberIndex, nick, { actorIndex: app.memberIndex, reason: readReason(request) });
			return { status: 200, body: state.memberJson(app.memberIndex) };
		},
	},
	{
		method: 'GET',
		path: '/guilds/:guild/members/:user',
		bucket: 'memberGet',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			return { status: 200, body: state.memberJson(requireMember(state, params.guild!, params.user!)) };
		},
	},
	{
		method: 'PATCH',
		path: '/guilds/:guild/members/:user',
		bucket: 'memberEdit',
		auth: 'bot',
		major: 'guild',
		sharedWrite: true,
		handle(request) {
			const { state } = request.ctx;
			const app = request.app!;
			requireGuild(state, request.params.guild);
			const nick = readNick(request.body);
			const until = readTimeout(request.body, state.now());
			const target = requireMember(state, request.params.guild!, request.params.user!);
			// Each field asks for its own permission; a body with neither is a rename of nothing.
			if (nick !== undefined || until === undefined) assertCanRename(state, app, target);
			if (until !== undefined) assertCanTimeout(state, app, target);
			const change = { actorIndex: app.memberIndex, reason: readReason(request) };
			if (nick !== undefined) state.setNick(target, nick, change);
			if (until !== undefined) timeoutMember(state, target, until, change);
			return { status: 200, body: state.memberJson(target) };
		},
	},
];

/**
 * Discord's rules for renaming someone else: never the owner; MANAGE_NICKNAMES (or
 * ADMINISTRATOR); and the target's highest role strictly below the bot's. A bot renaming itself
 * through this route needs only one of the nickname permissions.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
function assertCanRename(state: SandboxState, app: SandboxApp, target: number): void {
	const permissions = state.permissions(app.memberIndex);
	if (target === app.memberIndex) {
		if ((permissions & (PermissionFlagsBits.ManageNicknames | PermissionFlagsBits.ChangeNickname)) === 0n)
			throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
		return;
	}
	const allowed =
		!state.isOwner(target) &&
		(permissions & PermissionFlagsBits.ManageNicknames) !== 0n &&
		(state.isOwner(app.memberIndex) || state.highestPosition(target) < state.highestPosition(app.memberIndex));
	if (!allowed) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}

/** The `communication_disabled_until` of a member edit (readNick has checked the body is an object). */
function readTimeout(body: unknown, now: number): number | null | undefined {
	if (body === undefined) return undefined;
	return readFutureTimestamp(body as Record<string, unknown>, 'communication_disabled_until', now, MAX_TIMEOUT_MS, INVALID_TIMEOUT);
}

/**
 * The `nick` of a member edit: undefined when absent, null to clear (`""` and whitespace clear
 * too), otherwise trimmed and at most 32 code points. Fields other than these two are ignored.
 */
function readNick(body: unknown): string | null | undefined {
	if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
		if (body === undefined) return undefined;
		throw DiscordHttpError.invalidFormBody({ _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
	}
	if (!('nick' in body)) return undefined;
	const { nick } = body as RESTPatchAPIGuildMemberJSONBody;
	if (nick === null || nick === undefined) return null;
	if (typeof nick !== 'string') throw DiscordHttpError.invalidField('nick', { code: 'BASE_TYPE_STRING', message: 'Must be a string.' });
	const trimmed = nick.trim();
	if ([...trimmed].length > MAX_NICK)
		throw DiscordHttpError.invalidField('nick', { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${MAX_NICK} or fewer in length.` });
	return trimmed === '' ? null : trimmed;
}
