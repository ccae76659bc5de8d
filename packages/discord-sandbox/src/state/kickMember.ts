import { AuditLogEvent } from 'discord-api-types/v10';
import type { MemberChange, SandboxState } from './SandboxState.js';

/**
 * Removes a member, as Remove Guild Member (a kick) does: a MEMBER_KICK audit entry (20) by whoever
 * kicked, then GUILD_MEMBER_REMOVE; one of our bots kicked leaves with its app (GUILD_DELETE to
 * it). Unlike a ban, the user may join again.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-member}
 */
export function kickMember(state: SandboxState, index: number, change: MemberChange): void {
	state.auditLog.add({
		id: state.snowflakes.next(),
		actionType: AuditLogEvent.MemberKick,
		actorIndex: change.actorIndex,
		targetIndex: index,
		reason: change.reason,
	});
	const app = state.apps.find((candidate) => candidate.memberIndex === index);
	if (app) state.removeApp(app);
	else state.removeMember(index);
}
