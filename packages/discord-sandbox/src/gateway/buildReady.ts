import type { GatewayReadyDispatchData } from 'discord-api-types/v10';
import type { GatewayHost } from './GatewayHost.js';

/**
 * READY as Discord sends it to bots: the typed fields plus the user-account leftovers it still
 * includes. discord.js reads only the typed ones, but other clients may expect the rest.
 */
export type ReadyData = Omit<GatewayReadyDispatchData, 'application'> & {
	application: { id: string; flags: number };
	user_settings: Record<string, never>;
	private_channels: [];
	presences: [];
	relationships: [];
	guild_join_requests: [];
	geo_ordered_rtc_regions: [];
	auth: Record<string, never>;
};

/**
 * The READY dispatch for a new session
 * ({@link https://discord.com/developers/docs/events/gateway-events#ready | Ready}): every guild
 * listed as unavailable, to be filled in by the GUILD_CREATEs that follow.
 */
export function buildReady(
	ready: ReturnType<GatewayHost['readyData']>,
	session: { id: string; shard: [number, number]; guildIds: readonly string[] },
	resumeGatewayUrl: string,
): ReadyData {
	return {
		v: 10,
		user: ready.user,
		guilds: session.guildIds.map((id) => ({ id, unavailable: true })),
		session_id: session.id,
		resume_gateway_url: resumeGatewayUrl,
		shard: session.shard,
		application: ready.application,
		user_settings: {},
		private_channels: [],
		presences: [],
		relationships: [],
		guild_join_requests: [],
		geo_ordered_rtc_regions: [],
		auth: {},
	};
}
