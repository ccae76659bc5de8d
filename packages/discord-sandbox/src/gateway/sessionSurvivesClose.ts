import { GatewayCloseCodes } from 'discord-api-types/v10';

/**
 * Server close codes after which the session is dropped: the ones discord.js answers by
 * identifying again or giving up. Keeping those sessions would only leak them until they expire.
 */
const ENDS_SESSION_WHEN_SERVER_CLOSES: ReadonlySet<number> = new Set([
	1000,
	GatewayCloseCodes.NotAuthenticated,
	GatewayCloseCodes.AuthenticationFailed,
	GatewayCloseCodes.AlreadyAuthenticated,
	GatewayCloseCodes.InvalidSeq,
	GatewayCloseCodes.RateLimited,
	GatewayCloseCodes.SessionTimedOut,
	GatewayCloseCodes.InvalidShard,
	GatewayCloseCodes.ShardingRequired,
	GatewayCloseCodes.InvalidAPIVersion,
	GatewayCloseCodes.InvalidIntents,
	GatewayCloseCodes.DisallowedIntents,
]);

/**
 * Whether a session stays resumable after its connection closed with `code`.
 *
 * A client closing with 1000 or 1001 ends its session; any other client code, or a dropped TCP
 * connection (1006), keeps it resumable
 * ({@link https://discord.com/developers/docs/events/gateway#disconnecting | Disconnecting}).
 * When the server closed, the code it chose decides.
 */
export function sessionSurvivesClose(code: number, closedByServer: boolean): boolean {
	if (closedByServer) return !ENDS_SESSION_WHEN_SERVER_CLOSES.has(code);
	return code !== 1000 && code !== 1001;
}
