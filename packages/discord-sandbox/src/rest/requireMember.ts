import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { DiscordHttpError } from './errors.js';

/** The member's index, or 404/10007 Unknown Member for someone who is not (or no longer) one. */
export function requireMember(state: SandboxState, guildId: string, userId: string): number {
	const index = state.memberIndex(guildId, userId);
	if (index === -1) throw DiscordHttpError.of(RESTJSONErrorCodes.UnknownMember);
	return index;
}
