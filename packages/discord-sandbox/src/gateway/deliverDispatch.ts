import { GatewayDispatchEvents } from 'discord-api-types/v10';
import type { SandboxDispatch } from './GatewayHost.js';
import type { GatewaySession } from './GatewaySession.js';

/**
 * Hands one sandbox event to every session that should see it; returns how many did.
 *
 * The data is stringified at most once however many sessions receive it (a renaming run sends a
 * few hundred GUILD_MEMBER_UPDATEs a second to every bot), and not at all when nobody wants it.
 * Sessions waiting to be resumed receive it too: it goes into their replay buffer.
 */
export function deliverDispatch(event: SandboxDispatch, sessions: Iterable<GatewaySession>): number {
	let dataJson: string | undefined;
	let delivered = 0;
	for (const session of sessions) {
		if (session.ended || !session.wants(event)) continue;
		dataJson ??= JSON.stringify(event.d);
		if (event.t === GatewayDispatchEvents.GuildCreate) session.joinGuild(event.guildId);
		session.dispatch(event.t, dataJson);
		// GUILD_DELETE with unavailable: true is an outage, not the bot leaving.
		if (event.t === GatewayDispatchEvents.GuildDelete && (event.d as { unavailable?: boolean }).unavailable !== true) {
			session.leaveGuild(event.guildId);
		}
		delivered++;
	}
	return delivered;
}
