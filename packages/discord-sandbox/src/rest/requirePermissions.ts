import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';

/** Whether the bot holds every flag of `permissions` in the guild (Administrator grants them all). */
export function holdsPermissions(state: SandboxState, app: SandboxApp, permissions: bigint): boolean {
	return (state.permissions(app.memberIndex) & permissions) === permissions;
}

/** 403/50013 Missing Permissions unless the bot holds every flag of `permissions`. */
export function requirePermissions(state: SandboxState, app: SandboxApp, permissions: bigint): void {
	if (!holdsPermissions(state, app, permissions)) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}
