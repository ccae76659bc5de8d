import {
	type APIGuild,
	DiscordAPIError,
	type REST,
	RESTJSONErrorCodes,
	type RESTPutAPIGuildIncidentActionsJSONBody,
	type RESTPutAPIGuildIncidentActionsResult,
	Routes,
} from 'discord.js';
import { ErrorCodes, LockdownError } from '../errors.js';
import { type Lockdown, lockdownOf } from './Lockdown.js';

/** The REST calls a lockdown makes, with the boss's token (discord.js's `REST` or `PatientRest`). */
export type LockdownRest = Pick<REST, 'get' | 'put'>;

/** What a lockdown pauses, for how long, and the audit-log reason that names who asked. */
export interface LockdownRequest {
	readonly hours: number;
	/** Pause DMs between members too (true), lift their pause (false), or leave them as they are. */
	readonly dms?: boolean | undefined;
	readonly reason: string;
	/** Unix ms; `Date.now()` by default. */
	readonly now?: number;
}

const HOUR_MS = 3_600_000;

/**
 * Reads what the guild has paused now (Get Guild's `incidents_data`): fresh from Discord, since
 * a moderator may have paused invites in Discord's own menu.
 */
export async function readLockdown(rest: LockdownRest, guildId: string, now = Date.now()): Promise<Lockdown> {
	const guild = (await rest.get(Routes.guild(guildId))) as APIGuild;
	return lockdownOf(guild.incidents_data, now);
}

/**
 * Pauses the guild's invites for `hours` (and DMs as asked) with Modify Guild Incident Actions.
 * The route is a PUT that replaces both actions, so DMs left as they are are read first and sent
 * back unchanged. Discord asks Manage Guild of the bot that sends it.
 *
 * @throws {LockdownError} when the bot lacks Manage Guild, naming it and what to do.
 */
export async function startLockdown(rest: LockdownRest, guildId: string, request: LockdownRequest): Promise<Lockdown> {
	const now = request.now ?? Date.now();
	const until = new Date(now + request.hours * HOUR_MS).toISOString();
	const dms = request.dms === undefined ? ((await readLockdown(rest, guildId, now)).dmsUntil?.toISOString() ?? null) : request.dms ? until : null;
	return putIncidentActions(rest, guildId, { invites_disabled_until: until, dms_disabled_until: dms }, request.reason, now);
}

/** Opens invites and DMs again at once (both set to null). */
export function liftLockdown(rest: LockdownRest, guildId: string, reason: string, now = Date.now()): Promise<Lockdown> {
	return putIncidentActions(rest, guildId, { invites_disabled_until: null, dms_disabled_until: null }, reason, now);
}

async function putIncidentActions(
	rest: LockdownRest,
	guildId: string,
	body: RESTPutAPIGuildIncidentActionsJSONBody,
	reason: string,
	now: number,
): Promise<Lockdown> {
	try {
		// Discord documents no audit-log entry for this route; the reason goes along anyway, as on
		// every change massnick makes, should Discord record one.
		const answer = (await rest.put(Routes.guildIncidentActions(guildId), { body, reason })) as RESTPutAPIGuildIncidentActionsResult;
		return lockdownOf(answer, now);
	} catch (error) {
		if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.MissingPermissions) throw bossLacksManageGuild();
		throw error;
	}
}

/** The refusal when the boss bot lacks Manage Guild: what Discord asks, and what to do. */
export function bossLacksManageGuild(): LockdownError {
	return new LockdownError(
		ErrorCodes.MissingPermission,
		"massnick's boss bot lacks the Manage Guild permission, which Discord asks of a bot to pause invites and DMs (massnick needs it only for a lockdown). Give the boss's role Manage Guild in Server Settings → Roles (npm run doctor prints an invite link with it), or pause invites by hand in Discord meanwhile.",
		{ context: { permission: 'Manage Guild' } },
	);
}
