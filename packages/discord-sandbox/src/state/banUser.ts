import { AuditLogEvent, GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import type { MemberChange, SandboxState } from './SandboxState.js';

/**
 * Bans the user in slot `index`, a member or someone who already left, as Create Guild Ban does:
 * a member is removed first (GUILD_MEMBER_REMOVE to the members intent; for one of our bots, the
 * app leaves the guild), then the ban is recorded with its reason, a MEMBER_BAN_ADD audit entry
 * (22) names who banned, and GUILD_BAN_ADD goes to sessions with the Guild Moderation intent.
 * A user banned already is left alone: false, no entry, no event.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#create-guild-ban}
 * @see {@link https://discord.com/developers/docs/events/gateway-events#guild-ban-add}
 */
export function banUser(state: SandboxState, index: number, change: MemberChange): boolean {
	const userId = state.members.idAt(index);
	if (state.bans.has(userId)) return false;
	if (!state.members.isRemoved(index)) {
		const app = state.apps.find((candidate) => candidate.memberIndex === index);
		if (app) state.removeApp(app);
		else state.removeMember(index);
	}
	state.bans.add({ userId, index, reason: change.reason });
	state.auditLog.add({
		id: state.snowflakes.next(),
		actionType: AuditLogEvent.MemberBanAdd,
		actorIndex: change.actorIndex,
		targetIndex: index,
		reason: change.reason,
	});
	state.events.emit({
		guildId: state.guildId,
		t: GatewayDispatchEvents.GuildBanAdd,
		d: { guild_id: state.guildId, user: state.userJson(index) },
		intent: GatewayIntentBits.GuildModeration,
	});
	return true;
}

/**
 * Lifts a ban, as Remove Guild Ban does: a MEMBER_BAN_REMOVE audit entry (23) and GUILD_BAN_REMOVE
 * to the Guild Moderation intent. False (and nothing else) when the user was not banned. The user
 * does not come back: they must join again.
 *
 * @see {@link https://discord.com/developers/docs/resources/guild#remove-guild-ban}
 */
export function unbanUser(state: SandboxState, userId: bigint, change: MemberChange): boolean {
	const ban = state.bans.remove(userId);
	if (!ban) return false;
	state.auditLog.add({
		id: state.snowflakes.next(),
		actionType: AuditLogEvent.MemberBanRemove,
		actorIndex: change.actorIndex,
		targetIndex: ban.index,
		reason: change.reason,
	});
	state.events.emit({
		guildId: state.guildId,
		t: GatewayDispatchEvents.GuildBanRemove,
		d: { guild_id: state.guildId, user: state.userJson(ban.index) },
		intent: GatewayIntentBits.GuildModeration,
	});
	return true;
}
