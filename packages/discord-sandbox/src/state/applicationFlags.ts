import { ApplicationFlags } from 'discord-api-types/v10';
import type { SandboxApp } from './SandboxApp.js';

/**
 * The application's flags as Discord reports them: the "limited" intent flags of an unverified
 * app (under 100 servers) whose privileged intents are switched on in the portal.
 *
 * @see {@link https://discord.com/developers/docs/resources/application#application-object-application-flags}
 */
export function applicationFlags(app: SandboxApp): number {
	return (app.membersIntent ? ApplicationFlags.GatewayGuildMembersLimited : 0) | ApplicationFlags.GatewayMessageContentLimited;
}
