import { PermissionFlagsBits, RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxApp } from '../state/SandboxApp.js';
import type { SandboxState } from '../state/SandboxState.js';
import { assertCanModerate } from './assertCanModerate.js';
import { DiscordHttpError } from './errors.js';

/** A timeout lasts at most 28 days. */
export const MAX_TIMEOUT_MS = 28 * 24 * 60 * 60_000;

/**
 * Discord's body for a `communication_disabled_until` it refuses (more than 28 days ahead, or no
 * timestamp), as clients report it (discord.js #11119, JDA #2074).
 */
export const INVALID_TIMEOUT = { code: 'INVALID_COMMUNICATION_DISABLED_TIMESTAMP', message: 'Invalid communication disabled timestamp' };

/**
 * Timing a member out (or lifting it) needs Moderate Members and the hierarchy, and never reaches
 * the owner or a member holding Administrator: 403/50013, as Discord refuses.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export function assertCanTimeout(state: SandboxState, app: SandboxApp, target: number): void {
	assertCanModerate(state, app, target, PermissionFlagsBits.ModerateMembers);
	if ((state.permissions(target) & PermissionFlagsBits.Administrator) !== 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
}
