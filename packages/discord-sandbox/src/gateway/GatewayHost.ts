import type { APIGuildMember, APIUser, GatewayDispatchEvents, GatewayGuildCreateDispatchData } from 'discord-api-types/v10';

/**
 * The seam between the sandbox's gateway and the rest of the sandbox.
 *
 * The gateway server (`gateway/`) only ever talks to the sandbox's state through this interface;
 * `startSandbox` builds one from the state and hands it to `createGatewayServer`. Keeping it
 * narrow lets the gateway be tested on its own and keeps the state free of WebSocket concerns.
 */
export interface GatewayHost {
	/** The application whose bot token this is (the raw `token`, without a `Bot ` prefix), if any. */
	appByToken(token: string): GatewayApp | undefined;
	/** READY's `user`, `application` and `guilds` for this app. */
	readyData(appId: string): { user: APIUser; application: { id: string; flags: number }; guildIds: string[] };
	/** The GUILD_CREATE payload for one guild, as this app's bot sees it (members: only the bot itself). */
	guildCreate(appId: string, guildId: string): GatewayGuildCreateDispatchData;
	/** Every member of the guild in ascending id order, in chunks of `chunkSize` (the last may be shorter). */
	memberChunks(guildId: string, chunkSize: number): Iterable<APIGuildMember[]>;
	/** Op 8 with `user_ids`: the members found, and the ids that are not members. */
	membersByIds(guildId: string, ids: readonly string[]): { members: APIGuildMember[]; notFound: string[] };
	/** Op 8 with a username prefix `query` (case-insensitive), at most `limit` members. */
	membersByQuery(guildId: string, query: string, limit: number): APIGuildMember[];
	/** Subscribe to every dispatch the sandbox produces; returns the unsubscribe function. */
	subscribe(listener: (event: SandboxDispatch) => void): () => void;
	/** Timing knobs, already divided by the time scale where they are rate-limit windows. */
	readonly timing: GatewayTiming;
	/** Logs go through here (stderr in the CLI); never log tokens. */
	readonly log: (obj: Record<string, unknown>, msg: string) => void;
}

export interface GatewayApp {
	/** The application id, which is also its bot user's id. */
	id: string;
	/** Intents bits this application may use: privileged ones only when switched on for it. */
	allowedIntents(): number;
}

/**
 * One event for the gateway to deliver.
 *
 * - `intent`: the intent bit a session must have identified with to receive it (e.g.
 *   `GatewayIntentBits.GuildMembers` for GUILD_MEMBER_*), or `null` for events sent regardless
 *   (INTERACTION_CREATE).
 * - `appId`: deliver only to this application's sessions (INTERACTION_CREATE goes to the app that
 *   owns the command).
 * - `alsoToUserId`: a bot user that receives this event even without `intent` (Discord sends
 *   GUILD_MEMBER_UPDATE for the current user regardless of the GuildMembers intent).
 * - `guildId`: only sessions whose bot is in this guild (READY's guilds, plus GUILD_CREATE and
 *   minus GUILD_DELETE delivered since) and whose shard owns it receive the event; `''` for an
 *   event that belongs to no guild.
 */
export interface SandboxDispatch {
	guildId: string;
	t: GatewayDispatchEvents;
	d: unknown;
	intent: number | null;
	appId?: string;
	alsoToUserId?: string;
}

export interface GatewayTiming {
	/** Sent in Hello. Not a rate limit, so not time-scaled; default 41_250. */
	heartbeatIntervalMs: number;
	/** Client sends allowed per window before close 4008: 120 per 60_000 ms (scaled). */
	sendLimit: number;
	sendWindowMs: number;
	/** One all-members op 8 per guild per bot per this window (30_000 ms, scaled). */
	memberRequestWindowMs: number;
	/** How long a closed session stays resumable (a few minutes, not scaled). */
	resumeWindowMs: number;
	/** Delay between GUILD_MEMBERS_CHUNK sends, to let the event loop breathe (default 0). */
	chunkDelayMs: number;
}

/** What `createGatewayServer` returns: attach to the shared HTTP server, fault hooks, shutdown. */
export interface GatewayServer {
	/** Handles an HTTP upgrade on `/gateway` or `/gateway/` (with any query); other paths are refused. */
	handleUpgrade(request: import('node:http').IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void;
	/** Close connections (all, or one application's) with `code` (default 4000, resumable). */
	closeConnections(options?: { appId?: string; code?: number }): number;
	/** Send op 7 Reconnect to all, or one application's, sessions. */
	requestReconnect(options?: { appId?: string }): number;
	/** Per app: connected sessions, their state and last heartbeat round trip. */
	connections(): Array<{ appId: string; sessionId: string; state: 'identifying' | 'ready' | 'closed'; intents: number }>;
	close(): Promise<void>;
}
