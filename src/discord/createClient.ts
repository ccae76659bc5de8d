import { Client, DefaultRestOptions, type GatewayIntentBits, type MessageMentionOptions, Options } from 'discord.js';

/** What every massnick client needs to know to reach Discord (or the sandbox). */
export interface ClientOptions {
	intents: GatewayIntentBits[];
	/** discord.js's `rest.api`, e.g. `http://127.0.0.1:3000/api`; Discord's own when undefined. */
	apiUrl?: string | undefined;
	/** Milliseconds discord.js adds to every rate-limit reset, twice (docs/discord.md); massnick's default is 0. */
	restOffsetMs: number;
	restTimeoutMs: number;
	/**
	 * How often discord.js retries a 5xx or a dropped connection by itself. Workers pass 0: they
	 * retry with backoff and jitter of their own, which discord.js's immediate retries lack.
	 */
	restRetries: number;
	/**
	 * Waited on right before each request leaves, discord.js's own retries included: a worker's
	 * writes take their turn on the process's pace under a guild-wide cap (`SharedWritePacer`).
	 */
	beforeRequest?: ((method: string | undefined, signal: AbortSignal | undefined) => Promise<void>) | undefined;
}

/** Allowed mentions that ping nobody, replied-to users included. */
export const NO_MENTIONS: MessageMentionOptions = { parse: [], repliedUser: false };

/**
 * A discord.js client that caches no members or users but its own.
 *
 * discord.js keeps every member it sees forever by default; ten clients on a 100,000-member guild
 * held about 780 MB that way. massnick reads members as plain JSON records through REST and only
 * needs `guild.members.me` (for the role hierarchy) from the cache.
 * See https://discord.js.org/docs/packages/discord.js/main/Options:Class#cacheWithLimits
 */
export function createClient(options: ClientOptions): Client {
	const { beforeRequest } = options;
	return new Client({
		intents: options.intents,
		// Nothing massnick posts may ping anyone: a template, a role's or a member's name can carry
		// `@everyone`, `<@id>` or `<@&id>`. Set once here, every message, reply, edit and follow-up
		// of the client allows no mention (discord.js applies it wherever a call gives none).
		allowedMentions: NO_MENTIONS,
		rest: {
			...(options.apiUrl ? { api: options.apiUrl } : {}),
			offset: options.restOffsetMs,
			timeout: options.restTimeoutMs,
			retries: options.restRetries,
			...(beforeRequest
				? {
						makeRequest: async (url, init) => {
							await beforeRequest(init.method, init.signal ?? undefined);
							return DefaultRestOptions.makeRequest(url, init);
						},
					}
				: {}),
		},
		makeCache: Options.cacheWithLimits({
			...Options.DefaultMakeCacheSettings,
			GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
			UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
			PresenceManager: 0,
			ReactionManager: 0,
			ThreadMemberManager: 0,
			VoiceStateManager: 0,
		}),
	});
}
