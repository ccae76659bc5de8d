import { AuditLogEvent } from 'discord-api-types/v10';
import type { MemberChange, SandboxState } from './SandboxState.js';
import { toDiscordTimestamp } from './toDiscordTimestamp.js';

/**
 * Sets a member's `communication_disabled_until` (Unix ms), or lifts it with null: a MEMBER_UPDATE
 * audit entry (24) whose change is `communication_disabled_until`, then GUILD_MEMBER_UPDATE with
 * the member as it is now. Setting what is already set changes nothing: false, no entry, no event.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#modify-guild-member}
 */
export function timeoutMember(state: SandboxState, index: number, until: number | null, change: MemberChange): boolean {
	const previous = state.timeouts.get(index) ?? null;
	if (previous === until) return false;
	if (until === null) state.timeouts.delete(index);
	else state.timeouts.set(index, until);
	state.auditLog.add({
		id: state.snowflakes.next(),
		actionType: AuditLogEvent.MemberUpdate,
		key: 'communication_disabled_until',
		actorIndex: change.actorIndex,
		targetIndex: index,
		reason: change.reason,
		oldUntil: previous === null ? null : toDiscordTimestamp(previous),
		newUntil: until === null ? null : toDiscordTimestamp(until),
	});
	state.memberUpdated(index);
	return true;
}
