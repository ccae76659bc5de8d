import type { Logger } from 'pino';
import type { GatewayServer } from './gateway/GatewayHost.js';
import { Faults } from './rest/Faults.js';
import { InvalidRequestTracker } from './rest/InvalidRequestTracker.js';
import { RateLimiter } from './rest/RateLimiter.js';
import { RequestLog } from './rest/RequestLog.js';
import { RequestStats } from './rest/RequestStats.js';
import type { RateLimitRule, ResolvedSandboxOptions } from './SandboxOptions.js';
import { SandboxState } from './state/SandboxState.js';

/** What the REST router, the control API and the gateway host share while the sandbox runs. */
export interface SandboxContext {
	state: SandboxState;
	options: ResolvedSandboxOptions;
	log: Logger;
	limiter: RateLimiter;
	invalidRequests: InvalidRequestTracker;
	requests: RequestLog;
	stats: RequestStats;
	faults: Faults;
	/** Set once the gateway server exists. */
	gateway: GatewayServer | null;
	/** Where the sandbox listens, once it does (`ws://host:port/gateway` is derived from it). */
	address: { host: string; port: number };
	/** A rate-limit rule with its window divided by the time scale. */
	scale(rule: RateLimitRule): RateLimitRule;
}

/** Generates the guild and builds the shared services. */
export function createSandboxContext(options: ResolvedSandboxOptions, log: Logger): SandboxContext {
	const scale = (rule: RateLimitRule): RateLimitRule => ({ limit: rule.limit, windowMs: rule.windowMs / options.timeScale });
	const invalid = options.rateLimits.invalidRequests;
	return {
		state: new SandboxState(options),
		options,
		log,
		limiter: new RateLimiter(options.now),
		invalidRequests: new InvalidRequestTracker({ ...scale(invalid), banMs: invalid.banMs / options.timeScale }, options.now),
		requests: new RequestLog(options.requestLogLimit),
		stats: new RequestStats(),
		faults: new Faults(options.seed),
		gateway: null,
		address: { host: options.host, port: options.port },
		scale,
	};
}
