import { GatewayDispatchEvents, GatewayIntentBits, type APIIncidentsData } from 'discord-api-types/v10';
import type { SandboxState } from './SandboxState.js';

/**
 * Pauses (or with null, resumes) the guild's invites and DMs, as Modify Guild Incident Actions
 * does, and sends GUILD_UPDATE with the guild's new `incidents_data` to every session (the Guilds
 * intent). The route is a PUT: both actions are replaced, so a field the request left out is
 * lifted (the caller passes null for it). Returns the incidents data as it now reads.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-incident-actions}
 */
export function setIncidentActions(state: SandboxState, actions: { invitesDisabledUntil: string | null; dmsDisabledUntil: string | null }): APIIncidentsData {
	state.incidents = { invites_disabled_until: actions.invitesDisabledUntil, dms_disabled_until: actions.dmsDisabledUntil };
	state.events.emit({ guildId: state.guildId, t: GatewayDispatchEvents.GuildUpdate, d: state.guildJson(false), intent: GatewayIntentBits.Guilds });
	return state.incidentsData() ?? { invites_disabled_until: null, dms_disabled_until: null };
}
