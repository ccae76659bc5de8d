import { GatewayDispatchEvents, GatewayIntentBits, type APIIncidentsData } from 'discord-api-types/v10';
import type { SandboxState } from './SandboxState.js';

/**
 * Pauses (or with null, resumes) the guild's invites and DMs, as Modify Guild Incident Actions
 * does, and sends GUILD_UPDATE with the guild's new `incidents_data` to every session (the Guilds
 * intent). A field left undefined keeps its value. Returns the incidents data as it now is.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-incident-actions}
 */
export function setIncidentActions(
	state: SandboxState,
	changes: { invitesDisabledUntil?: string | null | undefined; dmsDisabledUntil?: string | null | undefined },
): APIIncidentsData {
	const current = state.incidents ?? { invites_disabled_until: null, dms_disabled_until: null };
	state.incidents = {
		...current,
		invites_disabled_until: changes.invitesDisabledUntil === undefined ? current.invites_disabled_until : changes.invitesDisabledUntil,
		dms_disabled_until: changes.dmsDisabledUntil === undefined ? current.dms_disabled_until : changes.dmsDisabledUntil,
	};
	state.events.emit({ guildId: state.guildId, t: GatewayDispatchEvents.GuildUpdate, d: state.guildJson(false), intent: GatewayIntentBits.Guilds });
	return { ...state.incidents };
}
