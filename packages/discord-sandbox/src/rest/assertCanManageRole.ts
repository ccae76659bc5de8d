import { PermissionFlagsBits, RESTJSONErrorCodes, type APIRole } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';

/**
 * Discord's two rules for a bot acting on a role (giving, taking or deleting it), both answered
 * 403/50013 Missing Permissions: MANAGE_ROLES (ADMINISTRATOR includes it), and the role strictly
 * below the bot's highest role (the owner is above every role). What a route adds for managed
 * roles and `@everyone` is the route's own.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function assertCanManageRole(state: SandboxState, app: SandboxApp, role: APIRole): void {
	const allowed =
		(state.permissions(app.memberIndex) & PermissionFlagsBits.ManageRoles) !== 0n &&
		(state.isOwner(app.memberIndex) || role.position < state.highestPosition(app.memberIndex));
	if (!allowed) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}
