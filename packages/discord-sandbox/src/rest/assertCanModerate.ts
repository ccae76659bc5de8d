import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';
import { holdsPermissions } from './requirePermissions.js';

/**
 * Discord's rules for acting on another member (kick, ban, timeout): the bot holds every bit of
 * `permissions` (Administrator grants all), the target is not the owner, and the target's highest
 * role is strictly below the bot's, unless the bot is the owner; otherwise 403/50013. The bot
 * itself is at its own rank, so it can never act on itself.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function assertCanModerate(state: SandboxState, app: SandboxApp, target: number, permissions: bigint): void {
	const allowed =
		holdsPermissions(state, app, permissions) &&
		!state.isOwner(target) &&
		(state.isOwner(app.memberIndex) || state.highestPosition(target) < state.highestPosition(app.memberIndex));
	if (!allowed) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}

/** Whether {@link assertCanModerate} would let the bot act on `target`, for a bulk ban's per-user answer. */
export function canModerate(state: SandboxState, app: SandboxApp, target: number, permissions: bigint): boolean {
	try {
		assertCanModerate(state, app, target, permissions);
		return true;
	} catch {
		return false;
	}
}
