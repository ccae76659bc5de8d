import { ApplicationFlags } from 'discord.js';

/**
 * The application flags that say the Server Members intent is switched on in the developer
 * portal: `GATEWAY_GUILD_MEMBERS` for a verified app, `GATEWAY_GUILD_MEMBERS_LIMITED` for one in
 * fewer than 100 servers. Either one lets the bot identify with GUILD_MEMBERS and list members.
 * @see {@link https://discord.com/developers/docs/resources/application#application-object-application-flags}
 */
export const MEMBERS_INTENT_FLAGS = ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited;

/** Whether an application's `flags` (from `GET /applications/@me` or READY) grant the Server Members intent. */
export function hasMembersIntent(flags: number | bigint): boolean {
	return (Number(flags) & MEMBERS_INTENT_FLAGS) !== 0;
}
