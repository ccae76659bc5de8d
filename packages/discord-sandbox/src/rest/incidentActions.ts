import { PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import { setIncidentActions } from '../state/setIncidentActions.js';
import { toDiscordTimestamp } from '../state/toDiscordTimestamp.js';
import { DiscordHttpError } from './errors.js';
import { requireGuild } from './queryParams.js';
import { readFutureTimestamp } from './readFutureTimestamp.js';
import type { Route } from './Route.js';

/** Invites and DMs can be paused for at most 24 hours. */
const MAX_AHEAD_MS = 24 * 60 * 60_000;

/**
 * Discord does not publish the error for a time past 24 hours; the sandbox names one of its own
 * (README, "Incident actions").
 */
const TOO_LATE = { code: 'INVALID_INCIDENT_ACTION_TIMESTAMP', message: 'Must be at most 24 hours in the future.' };

/**
 * Modify Guild Incident Actions: Manage Guild (403/50013), `invites_disabled_until` and
 * `dms_disabled_until` ISO 8601 timestamps at most 24 h ahead or null to lift (a field left out
 * keeps its value); answers the guild's `incidents_data`, and GUILD_UPDATE carries it.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-incident-actions}
 */
export const incidentActionRoutes: Route[] = [
	{
		method: 'PUT',
		path: '/guilds/:guild/incident-actions',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params, body }) {
			requireGuild(state, params.guild);
			if (body === null || typeof body !== 'object' || Array.isArray(body))
				throw DiscordHttpError.invalidFormBody({ _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] });
			const fields = body as Record<string, unknown>;
			const now = state.now();
			const invites = readFutureTimestamp(fields, 'invites_disabled_until', now, MAX_AHEAD_MS, TOO_LATE);
			const dms = readFutureTimestamp(fields, 'dms_disabled_until', now, MAX_AHEAD_MS, TOO_LATE);
			if ((state.permissions(app!.memberIndex) & PermissionFlagsBits.ManageGuild) === 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
			const stamp = (ms: number | null | undefined): string | null | undefined => (ms === null || ms === undefined ? ms : toDiscordTimestamp(ms));
			return { status: 200, body: setIncidentActions(state, { invitesDisabledUntil: stamp(invites), dmsDisabledUntil: stamp(dms) }) };
		},
	},
];
