import { PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import { setIncidentActions } from '../state/setIncidentActions.js';
import { toDiscordTimestamp } from '../state/toDiscordTimestamp.js';
import { DiscordHttpError, type FieldError } from './errors.js';
import { requireGuild } from './queryParams.js';
import { readFutureTimestamp } from './readFutureTimestamp.js';
import type { Route } from './Route.js';

/** Invites and DMs can be paused for at most 24 hours (Discord's documented bound). */
const MAX_AHEAD_MS = 24 * 60 * 60_000;

/**
 * A time past 24 hours is 400/50035 on the field. The messages are Discord's as reported in
 * discord/discord-api-docs#6797 (where the DMs one wrongly said 12 hours); the `code` inside is
 * the sandbox's own name, Discord's is not published (README, "Incident actions").
 */
const TOO_LATE: Readonly<Record<string, FieldError>> = {
	invites_disabled_until: { code: 'INVALID_INCIDENT_ACTION_TIMESTAMP', message: 'Invites disabled until time cannot exceed 24 hours into the future' },
	dms_disabled_until: { code: 'INVALID_INCIDENT_ACTION_TIMESTAMP', message: 'DMs disabled until time cannot exceed 24 hours into the future' },
};

/**
 * Modify Guild Incident Actions: Manage Guild (403/50013), `invites_disabled_until` and
 * `dms_disabled_until` ISO 8601 timestamps at most 24 h ahead, or null to lift. It is a PUT: a
 * field left out is lifted too, as on Discord (libraries re-send the other field for that reason).
 * Answers the guild's `incidents_data`; GUILD_UPDATE carries it. Discord documents no audit-log
 * event for it, so none is written.
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
			const read = (name: string): string | null => {
				const ms = readFutureTimestamp(fields, name, now, MAX_AHEAD_MS, TOO_LATE[name]!);
				return ms === null || ms === undefined ? null : toDiscordTimestamp(ms);
			};
			const invites = read('invites_disabled_until');
			const dms = read('dms_disabled_until');
			if ((state.permissions(app!.memberIndex) & PermissionFlagsBits.ManageGuild) === 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
			return { status: 200, body: setIncidentActions(state, { invitesDisabledUntil: invites, dmsDisabledUntil: dms }) };
		},
	},
];
