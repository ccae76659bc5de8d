import type { IncomingHttpHeaders } from 'node:http';
import type { SandboxContext } from '../SandboxContext.js';
import type { BucketName } from '../SandboxOptions.js';
import type { SandboxApp } from '../state/SandboxApp.js';

/** What a route handler gets. */
export interface RouteRequest {
	ctx: SandboxContext;
	/** The application whose token authorised the request (null on routes that need none). */
	app: SandboxApp | null;
	params: Record<string, string>;
	query: URLSearchParams;
	/** The parsed JSON body, or undefined when there was none. */
	body: unknown;
	headers: IncomingHttpHeaders;
	/** Records the member a request was about, for the request log. */
	setTarget(userId: string): void;
	/** Attributes a request without a bot token (interaction webhooks) to an application. */
	setApp(appId: string): void;
}

/** What a handler answers: status and JSON body (no body for 204). */
export interface RouteResponse {
	status: number;
	body?: unknown;
}

/**
 * One REST route. `path` uses `:name` for parameters; parameters named in `snowflakes` must be
 * snowflakes (400 otherwise, as Discord does). `major` names the parameter Discord computes
 * rate limits per (its "major parameter"); `webhook` means `{app}/{token}`.
 */
export interface Route {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	path: string;
	bucket: BucketName;
	auth: 'bot' | 'none';
	major?: 'guild' | 'channel' | 'webhook';
	/** Interaction callbacks and interaction webhooks are not bound by the global limit. */
	globalExempt?: boolean;
	/** Counts against the guild-wide shared write limit fault (PATCH member). */
	sharedWrite?: boolean;
	handle(request: RouteRequest): RouteResponse | Promise<RouteResponse>;
}
