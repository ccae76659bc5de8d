import type { Logger } from 'pino';
import { SandboxOptionError, type SandboxOptionProblem } from './SandboxOptionError.js';

/**
 * Rate-limit buckets, one per route group. Discord does not publish its per-route limits; the
 * defaults follow the figures libraries have observed (docs/discord.md and docs/role-routes.md).
 */
export type BucketName =
	| 'memberEdit'
	| 'memberEditMe'
	| 'memberList'
	| 'memberGet'
	| 'memberRole'
	| 'memberKick'
	| 'memberBan'
	| 'memberUnban'
	| 'banList'
	| 'bulkBan'
	| 'commands'
	| 'messageCreate'
	| 'messageEdit'
	| 'interactionCallback'
	| 'webhook'
	| 'default';

/** `limit` requests per fixed window of `windowMs`, the window starting at its first request. */
export interface RateLimitRule {
	limit: number;
	windowMs: number;
}

export interface RateLimitOptions {
	/** Per token, across routes (interaction callbacks and interaction webhooks are exempt). */
	global: RateLimitRule;
	/** 401/403/429 answers per client address before every request from it gets 429 for `banMs`. */
	invalidRequests: RateLimitRule & { banMs: number };
	/**
	 * Bans of users who are not members, per guild across every token, before Discord answers
	 * 400/30035. Discord publishes no number and calls it a rate limit (README, "Bans and their limits").
	 */
	nonMemberBans: RateLimitRule;
	routes: Record<BucketName, RateLimitRule>;
}

/** Everything `startSandbox` accepts; every field is optional. */
export interface SandboxOptions {
	/** Generated members (10..10,000,000); the boss and worker bots join on top. Default 1000. */
	members?: number;
	/**
	 * Worker applications besides the boss (0..1,000). Default 10. The boss, the workers and the
	 * other bots must fit in {@link integrationLimit}, as on Discord.
	 */
	workers?: number;
	/**
	 * How many bots the guild holds at most, the boss, the workers and {@link otherBots} together.
	 * Default 50, Discord's ("Maximum number of guild integrations reached (50)", enforced as bots
	 * are added: discord-api-docs #6842 and #7405). Only a study of one process beyond one server
	 * (the benchmark's 400 tokens) raises it; the guild it makes is one Discord would not allow.
	 */
	integrationLimit?: number;
	/**
	 * Whether the worker applications have the Server Members intent switched on, as the boss's
	 * has. Default false: massnick needs it for the boss alone, and the sandbox proves that.
	 */
	workerMembersIntent?: boolean;
	/**
	 * Bots of other applications among the generated members (MEE6, Dyno...), 1..1,000 and at most
	 * half the members. Default 4 with 1000 members or more, else 1. Those past the default each
	 * hold a managed role of their own, as a bot invited with permissions does: a test fills a
	 * server towards Discord's 50 integrations this way.
	 */
	otherBots?: number;
	/** Same seed, same guild: ids, names, tokens. Default 1. */
	seed?: number;
	/**
	 * The share (0..1) of generated members whose shown name is decorated, as real servers see:
	 * mathematical, fullwidth, circled and small-capital letters, zalgo, hoisting prefixes, names
	 * with nothing readable (state/decoratedNames.ts). Derived from the seed and each member's
	 * index, so it costs no memory per member. Default 0: the guild a seed always gave.
	 */
	decoratedNames?: number;
	/** Default 0 (any free port). */
	port?: number;
	/** Default `127.0.0.1`; a loopback address only (the control API has no authentication). */
	host?: string;
	/** Every rate-limit window (REST and gateway) is divided by this. Default 1. */
	timeScale?: number;
	/** Sent in the gateway's Hello. Default 41,250. */
	heartbeatIntervalMs?: number;
	/** How long after INTERACTION_CREATE the first callback is accepted. Default 3000. */
	interactionResponseDeadlineMs?: number;
	/** How long interaction webhook routes accept the token. Default 15 minutes. */
	interactionTokenLifetimeMs?: number;
	/** Requests kept by `GET /_sandbox/requests` (a ring buffer). Default 500,000. */
	requestLogLimit?: number;
	/** Default: silent. */
	logger?: Logger;
	/** Overrides of the default rate limits, before time scaling. */
	rateLimits?: {
		global?: Partial<RateLimitRule>;
		invalidRequests?: Partial<RateLimitRule & { banMs: number }>;
		nonMemberBans?: Partial<RateLimitRule>;
		routes?: Partial<Record<BucketName, Partial<RateLimitRule>>>;
	};
	/** How long a closed gateway session stays resumable. Default 180,000. */
	resumeWindowMs?: number;
	/** Delay between GUILD_MEMBERS_CHUNK sends. Default 0. */
	chunkDelayMs?: number;
	/** The clock, in Unix ms. Default `Date.now`. */
	now?: () => number;
}

/** Options with every default filled in; rate limits are not yet scaled. */
export interface ResolvedSandboxOptions extends Required<Omit<SandboxOptions, 'logger' | 'rateLimits' | 'otherBots'>> {
	logger: Logger | undefined;
	/** Undefined: the default, which depends on `members`. */
	otherBots: number | undefined;
	rateLimits: RateLimitOptions;
}

/** The defaults, in one place. */
export const SANDBOX_DEFAULTS = {
	members: 1000,
	workers: 10,
	integrationLimit: 50,
	workerMembersIntent: false,
	seed: 1,
	decoratedNames: 0,
	port: 0,
	host: '127.0.0.1',
	timeScale: 1,
	heartbeatIntervalMs: 41_250,
	interactionResponseDeadlineMs: 3000,
	interactionTokenLifetimeMs: 15 * 60_000,
	requestLogLimit: 500_000,
	resumeWindowMs: 180_000,
	chunkDelayMs: 0,
	rateLimits: {
		global: { limit: 50, windowMs: 1000 },
		invalidRequests: { limit: 10_000, windowMs: 10 * 60_000, banMs: 60 * 60_000 },
		// "Two thousand nonmember ban limit" (discord-api-docs #5002); "not a hard limit, but rather a
		// rate limit" (Discord staff, #4048), whose window nobody published: a day, by assumption.
		nonMemberBans: { limit: 2000, windowMs: 24 * 60 * 60_000 },
		routes: {
			memberEdit: { limit: 10, windowMs: 10_000 },
			memberEditMe: { limit: 1, windowMs: 1000 },
			memberList: { limit: 10, windowMs: 10_000 },
			memberGet: { limit: 5, windowMs: 1000 },
			// Add and Remove Guild Member Role share it, per guild; observed, not documented
			// (docs/role-routes.md).
			memberRole: { limit: 10, windowMs: 10_000 },
			// Kick: 5 per 1 s per guild, observed (hata, Alliance Auth). Discord publishes nothing for
			// a ban or an unban (hata marks them "optimistic"): the sandbox gives them the kick's bucket
			// shape; the ban list 10 per 10 s per guild, as hata observed; a bulk ban (up to 200 users),
			// which nobody has published a figure for, 1 per second (docs/discord.md, "Banning members").
			memberKick: { limit: 5, windowMs: 1000 },
			memberBan: { limit: 5, windowMs: 1000 },
			memberUnban: { limit: 5, windowMs: 1000 },
			banList: { limit: 10, windowMs: 10_000 },
			bulkBan: { limit: 1, windowMs: 1000 },
			// Observed on Discord: 2 per 60 s per guild. Tests and restarts re-register commands
			// often, and nothing in massnick depends on this limit, so the sandbox is lenient.
			commands: { limit: 10, windowMs: 60_000 },
			messageCreate: { limit: 5, windowMs: 5000 },
			messageEdit: { limit: 5, windowMs: 5000 },
			interactionCallback: { limit: 50, windowMs: 1000 },
			webhook: { limit: 50, windowMs: 1000 },
			default: { limit: 50, windowMs: 1000 },
		},
	} satisfies RateLimitOptions,
} as const;

/** Fills in defaults and checks every option, reporting all problems at once. */
export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
	const problems: SandboxOptionProblem[] = [];
	const integer = (option: keyof SandboxOptions, value: number | undefined, fallback: number, min: number, max: number): number => {
		if (value === undefined) return fallback;
		if (!Number.isInteger(value) || value < min || value > max) problems.push({ option, message: `must be an integer from ${min} to ${max}, got ${value}` });
		return value;
	};
	const positive = (option: string, value: number | undefined, fallback: number): number => {
		if (value === undefined) return fallback;
		if (!Number.isFinite(value) || value <= 0) problems.push({ option, message: `must be a positive number, got ${value}` });
		return value;
	};
	const share = (option: keyof SandboxOptions, value: number | undefined, fallback: number): number => {
		if (value === undefined) return fallback;
		if (typeof value !== 'number' || !(value >= 0 && value <= 1)) problems.push({ option, message: `must be a number from 0 to 1, got ${value}` });
		return value;
	};
	const rule = (option: string, override: Partial<RateLimitRule> | undefined, fallback: RateLimitRule): RateLimitRule => ({
		limit: Math.round(positive(`${option}.limit`, override?.limit, fallback.limit)),
		windowMs: positive(`${option}.windowMs`, override?.windowMs, fallback.windowMs),
	});

	const defaults = SANDBOX_DEFAULTS.rateLimits;
	const overrides = options.rateLimits ?? {};
	const routes = Object.fromEntries(
		Object.entries(defaults.routes).map(([name, fallback]) => [name, rule(`rateLimits.routes.${name}`, overrides.routes?.[name as BucketName], fallback)]),
	) as Record<BucketName, RateLimitRule>;
	for (const name of Object.keys(overrides.routes ?? {})) {
		if (!(name in defaults.routes))
			problems.push({ option: `rateLimits.routes.${name}`, message: `unknown bucket; known: ${Object.keys(defaults.routes).join(', ')}` });
	}
	const resolved: ResolvedSandboxOptions = {
		members: integer('members', options.members, SANDBOX_DEFAULTS.members, 10, 10_000_000),
		workers: integer('workers', options.workers, SANDBOX_DEFAULTS.workers, 0, 1000),
		integrationLimit: integer('integrationLimit', options.integrationLimit, SANDBOX_DEFAULTS.integrationLimit, 1, 10_000),
		workerMembersIntent: options.workerMembersIntent ?? SANDBOX_DEFAULTS.workerMembersIntent,
		otherBots: options.otherBots === undefined ? undefined : integer('otherBots', options.otherBots, 1, 1, 1000),
		seed: integer('seed', options.seed, SANDBOX_DEFAULTS.seed, 0, 2 ** 31 - 1),
		decoratedNames: share('decoratedNames', options.decoratedNames, SANDBOX_DEFAULTS.decoratedNames),
		port: integer('port', options.port, SANDBOX_DEFAULTS.port, 0, 65_535),
		host: options.host ?? SANDBOX_DEFAULTS.host,
		timeScale: positive('timeScale', options.timeScale, SANDBOX_DEFAULTS.timeScale),
		heartbeatIntervalMs: positive('heartbeatIntervalMs', options.heartbeatIntervalMs, SANDBOX_DEFAULTS.heartbeatIntervalMs),
		interactionResponseDeadlineMs: positive(
			'interactionResponseDeadlineMs',
			options.interactionResponseDeadlineMs,
			SANDBOX_DEFAULTS.interactionResponseDeadlineMs,
		),
		interactionTokenLifetimeMs: positive('interactionTokenLifetimeMs', options.interactionTokenLifetimeMs, SANDBOX_DEFAULTS.interactionTokenLifetimeMs),
		requestLogLimit: integer('requestLogLimit', options.requestLogLimit, SANDBOX_DEFAULTS.requestLogLimit, 1, 50_000_000),
		resumeWindowMs: positive('resumeWindowMs', options.resumeWindowMs, SANDBOX_DEFAULTS.resumeWindowMs),
		chunkDelayMs: options.chunkDelayMs ?? SANDBOX_DEFAULTS.chunkDelayMs,
		now: options.now ?? Date.now,
		logger: options.logger,
		rateLimits: {
			global: rule('rateLimits.global', overrides.global, defaults.global),
			invalidRequests: {
				...rule('rateLimits.invalidRequests', overrides.invalidRequests, defaults.invalidRequests),
				banMs: positive('rateLimits.invalidRequests.banMs', overrides.invalidRequests?.banMs, defaults.invalidRequests.banMs),
			},
			nonMemberBans: rule('rateLimits.nonMemberBans', overrides.nonMemberBans, defaults.nonMemberBans),
			routes,
		},
	};
	if (typeof resolved.host !== 'string' || !isLoopback(resolved.host)) {
		problems.push({
			option: 'host',
			message: `must be a loopback address (127.0.0.1, another 127.x address, ::1 or localhost), not ${JSON.stringify(resolved.host)}: the control API has no authentication, so the sandbox never listens where another machine can reach it`,
		});
	}
	if (resolved.otherBots !== undefined && resolved.otherBots > resolved.members / 2) {
		problems.push({ option: 'otherBots', message: `must be at most half of members (${resolved.members}), got ${resolved.otherBots}` });
	}
	const bots = 1 + resolved.workers + (resolved.otherBots ?? usualOtherBots(resolved.members));
	if (bots > resolved.integrationLimit) {
		problems.push({
			option: 'workers',
			message: `the boss, ${resolved.workers} workers and ${bots - 1 - resolved.workers} other bots are ${bots} bots, and a Discord server holds at most ${resolved.integrationLimit} integrations, bots included: ask for fewer workers (at most ${Math.max(0, resolved.integrationLimit - (bots - resolved.workers))}), or raise integrationLimit for a guild Discord would not allow`,
		});
	}
	if (problems.length > 0) throw new SandboxOptionError(problems);
	return resolved;
}

/** Bots of other applications a generated guild holds when `otherBots` is not given. */
export function usualOtherBots(members: number): number {
	return members >= 1000 ? 4 : 1;
}

/** Whether `host` is this machine only: `localhost`, `127.0.0.0/8`, or `::1`. */
function isLoopback(host: string): boolean {
	if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
	const parts = host.split('.');
	return parts.length === 4 && parts[0] === '127' && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}
