import { GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import type { SandboxState } from './SandboxState.js';

/**
 * The owner gives the server to member `index`, as Transfer Ownership in Server Settings does:
 * GUILD_UPDATE with the new `owner_id` to every session (the Guilds intent), and nothing else.
 * Nobody's roles change; the old owner keeps only what their roles give them, the new one stands
 * above the hierarchy. The sandbox writes no audit entry for it (its log keeps the bots' changes
 * and deleted roles only).
 *
 * @see {@link https://discord.com/developers/docs/events/gateway-events#guild-update}
 */
export function transferOwnership(state: SandboxState, index: number): void {
	state.guild.ownerId = state.members.idAt(index).toString();
	state.events.emit({ guildId: state.guildId, t: GatewayDispatchEvents.GuildUpdate, d: state.guildJson(false), intent: GatewayIntentBits.Guilds });
}
