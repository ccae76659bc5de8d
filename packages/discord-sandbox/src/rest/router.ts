import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import type { SandboxContext } from '../SandboxContext.js';
import type { SandboxApp } from '../state/SandboxApp.js';
import { isSnowflake } from '../state/snowflake.js';
import { discordJson } from './discordJson.js';
import { DiscordHttpError } from './errors.js';
import { rateLimitHeaders, retryAfterHeader, retryAfterSeconds } from './rateLimitHeaders.js';
import type { RateLimitDecision } from './RateLimiter.js';
import type { RateLimitScope } from './RequestLog.js';
import { requireGuildAccess } from './requireGuildAccess.js';
import type { Route, RouteResponse } from './Route.js';

/** Path parameters that must be snowflakes; `token` is free text. */
const SNOWFLAKE_PARAMS = new Set(['guild', 'user', 'channel', 'message', 'app', 'interaction', 'role']);

const BAN_MESSAGE =
	'You are being blocked from accessing our API temporarily due to exceeding our rate limits frequently. Please read our docs at https://discord.com/developers/docs/topics/rate-limits to prevent this moving forward.';

interface CompiledRoute {
	route: Route;
	segments: string[];
	/** The route as the request log shows it: `/guilds/:id/members/:id`. */
	name: string;
	/** The rate-limit counter's name; the `X-RateLimit-Bucket` hash is derived from it. */
	bucketId: string;
	bucketHash: string;
}

/** A request as the REST handler sees it: the path after `/api/v10`, and the query. */
export type RestHandler = (request: IncomingMessage, response: ServerResponse, path: string, query: URLSearchParams) => Promise<void>;

/**
 * Discord's REST API over `routes`: authentication, the global and per-route rate limits, the
 * invalid-request ceiling, faults, and Discord's error bodies. Every answer is logged for the
 * control API.
 *
 * @see {@link https://discord.com/developers/docs/topics/rate-limits}
 */
export function createRestRouter(ctx: SandboxContext, routes: readonly Route[]): RestHandler {
	const compiled: CompiledRoute[] = routes.map((route) => {
		const bucketId = route.bucket === 'default' ? `default ${route.method} ${route.path}` : route.bucket;
		return {
			route,
			segments: route.path.split('/').filter(Boolean),
			name: route.path.replace(/:(\w+)/g, (_, name: string) => (SNOWFLAKE_PARAMS.has(name) ? ':id' : `:${name}`)),
			bucketId,
			bucketHash: createHash('md5').update(`massnick-sandbox:${bucketId}`).digest('hex'),
		};
	});
	const { state, limiter, faults, options } = ctx;

	return async (request, response, path, query) => {
		const address = request.socket.remoteAddress ?? 'unknown';
		const method = (request.method ?? 'GET').toUpperCase();
		const raw = await readBody(request);
		let botUserId: string | null = null;
		let targetId: string | null = null;
		let routeName = '(unknown)';
		let routeHeaders: Record<string, string> = {};

		const send = (status: number, body: unknown, scope?: RateLimitScope, extraHeaders: Record<string, string> = {}, countInvalid = true): void => {
			const headers: Record<string, string> = { ...routeHeaders, ...extraHeaders };
			if (body !== undefined) headers['Content-Type'] = 'application/json';
			const text = body === undefined ? '' : isErrorBody(status) ? discordJson(body) : JSON.stringify(body);
			if (!response.headersSent) {
				response.writeHead(status, headers);
				response.end(text);
			}
			const code = status >= 400 && body && typeof body === 'object' && 'code' in body && typeof body.code === 'number' ? body.code : null;
			const at = options.now();
			ctx.requests.add({ at, botUserId, method, route: routeName, path, targetId, status, code, ...(scope ? { scope } : {}) });
			ctx.stats.record(botUserId, status);
			if (countInvalid) ctx.invalidRequests.record(address, status, scope ?? null);
			ctx.log.debug({ method, route: routeName, status, code, bot: botUserId, target: targetId }, 'rest');
		};
		const sendError = (error: DiscordHttpError): void => send(error.status, error.body);

		const banned = ctx.invalidRequests.bannedFor(address);
		if (banned > 0) {
			// Refusals during a ban aren't counted again, or the ban would never end.
			const headers = { 'Retry-After': retryAfterHeader(banned, options.timeScale), 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global' };
			send(429, { message: BAN_MESSAGE, retry_after: retryAfterSeconds(banned), global: true }, 'global', headers, false);
			return;
		}

		const segments = path.split('/').filter(Boolean).map(safeDecode);
		let pathMatched = false;
		let match: { compiled: CompiledRoute; params: Record<string, string> } | null = null;
		for (const candidate of compiled) {
			const params = matchSegments(candidate.segments, segments);
			if (!params) continue;
			pathMatched = true;
			if (candidate.route.method === method) {
				match = { compiled: candidate, params };
				break;
			}
		}
		if (!match) {
			sendError(pathMatched ? DiscordHttpError.methodNotAllowed() : DiscordHttpError.notFound());
			return;
		}
		const { compiled: found, params } = match;
		const { route } = found;
		routeName = found.name;

		for (const [name, value] of Object.entries(params)) {
			if (SNOWFLAKE_PARAMS.has(name) && !isSnowflake(value)) {
				sendError(DiscordHttpError.invalidField(`${name}_id`, { code: 'NUMBER_TYPE_COERCE', message: `Value "${value}" is not snowflake.` }));
				return;
			}
		}
		if (params.user) targetId = params.user;

		let app: SandboxApp | null = null;
		if (route.auth === 'bot') {
			app = authenticate(ctx, request.headers.authorization);
			if (!app) {
				sendError(DiscordHttpError.unauthorized());
				return;
			}
			botUserId = app.id;
		}
		const identity = app ? `app:${app.id}` : route.globalExempt ? 'interaction' : `address:${address}`;

		if (!route.globalExempt) {
			const global = limiter.hit(`global:${identity}`, ctx.scale(options.rateLimits.global));
			if (!global.allowed) {
				const wait = global.resetAt - options.now();
				send(429, { message: 'You are being rate limited.', retry_after: retryAfterSeconds(wait), global: true }, 'global', {
					'Retry-After': retryAfterHeader(wait, options.timeScale),
					'X-RateLimit-Global': 'true',
					'X-RateLimit-Scope': 'global',
				});
				return;
			}
		}

		const major = route.major === 'webhook' ? `${params.app}/${params.token}` : route.major ? params[route.major] : (params.interaction ?? 'global');
		const decision = limiter.hit(`${identity}:${found.bucketId}:${major}`, ctx.scale(options.rateLimits.routes[route.bucket]));
		routeHeaders = rateLimitHeaders(decision, found.bucketHash, options.now());
		if (!decision.allowed) {
			sendRateLimited(send, decision, 'user', options.now(), options.timeScale);
			return;
		}
		if (route.sharedWrite && faults.sharedWriteLimit) {
			const shared = limiter.hit(`shared:${found.bucketId}:${major}`, ctx.scale(faults.sharedWriteLimit));
			if (!shared.allowed) {
				sendRateLimited(send, shared, 'shared', options.now(), options.timeScale);
				return;
			}
		}

		let body: unknown;
		if (raw.length > 0) {
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				sendError(DiscordHttpError.of(RESTJSONErrorCodes.RequestBodyContainsInvalidJSON));
				return;
			}
		}

		if (faults.latencyMs > 0) await sleep(faults.latencyMs);
		if (route.auth === 'bot') {
			const failure = faults.serverError();
			if (failure) {
				send(failure, { message: failure === 500 ? '500: Internal Server Error' : '502: Bad Gateway', code: 0 });
				return;
			}
		}

		let result: RouteResponse;
		try {
			if (app) requireGuildAccess(state, app, route, params);
			result = await route.handle({
				ctx,
				app,
				params,
				query,
				body,
				headers: request.headers,
				setTarget: (userId) => (targetId = userId),
				setApp: (appId) => (botUserId = state.appById(appId)?.id ?? botUserId),
			});
		} catch (error) {
			if (error instanceof DiscordHttpError) {
				sendError(error);
				return;
			}
			ctx.log.error({ err: error, route: routeName }, 'route handler failed');
			send(500, { message: '500: Internal Server Error', code: 0 });
			return;
		}
		send(result.status, result.status === 204 ? undefined : result.body);
	};
}

/** `Authorization: Bot <token>`; anything else, or a revoked token, is no one. */
function authenticate(ctx: SandboxContext, header: string | undefined): SandboxApp | null {
	if (!header?.startsWith('Bot ')) return null;
	return ctx.state.appByToken(header.slice(4).trim()) ?? null;
}

function sendRateLimited(
	send: (status: number, body: unknown, scope?: RateLimitScope, headers?: Record<string, string>) => void,
	decision: RateLimitDecision,
	scope: 'user' | 'shared',
	now: number,
	timeScale: number,
): void {
	const wait = decision.resetAt - now;
	const message = scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.';
	send(429, { message, retry_after: retryAfterSeconds(wait), global: false }, scope, {
		'Retry-After': retryAfterHeader(wait, timeScale),
		'X-RateLimit-Scope': scope,
	});
}

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
	if (pattern.length !== segments.length) return null;
	const params: Record<string, string> = {};
	for (let i = 0; i < pattern.length; i++) {
		const expected = pattern[i]!;
		const actual = segments[i]!;
		if (expected.startsWith(':')) params[expected.slice(1)] = actual;
		else if (expected !== actual) return null;
	}
	return params;
}

/** Path segments arrive URL-encoded (`%40original`); a malformed escape is kept as is. */
function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function isErrorBody(status: number): boolean {
	return status >= 400;
}

/** The whole request body (bounded: Discord refuses bodies over a few MB, and so do we). */
async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > 8 * 1024 * 1024) break;
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}
