import { GatewayCloseCodes } from 'discord-api-types/v10';
import type { GatewayApp, GatewayHost } from './GatewayHost.js';
import { KNOWN_INTENTS, PRIVILEGED_INTENTS } from './intents.js';

/** An Identify the gateway accepts. */
export interface AcceptedIdentify {
	app: GatewayApp;
	intents: number;
	shard: [shardId: number, shardCount: number];
}

/** An Identify the gateway refuses, with the close code Discord uses for it. */
export interface RefusedIdentify {
	close: GatewayCloseCodes;
	reason: string;
}

/**
 * Checks an Identify (op 2) payload in the order Discord does: the token (4004), intent bits that
 * do not exist (4013), privileged intents the app has not switched on (4014), the shard (4010)
 * ({@link https://discord.com/developers/docs/events/gateway-events#identify | Identify}).
 */
export function parseIdentify(host: GatewayHost, data: unknown): AcceptedIdentify | RefusedIdentify {
	const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
	const app = appForToken(host, d.token);
	if (app === undefined) return { close: GatewayCloseCodes.AuthenticationFailed, reason: 'Authentication failed.' };
	const { intents } = d;
	if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || intents > 0x7fffffff || (intents & ~KNOWN_INTENTS) !== 0) {
		return { close: GatewayCloseCodes.InvalidIntents, reason: 'Invalid intent(s).' };
	}
	if ((intents & PRIVILEGED_INTENTS & ~app.allowedIntents()) !== 0) {
		return { close: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s).' };
	}
	const shard = parseShard(d.shard);
	if (shard === null) return { close: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard.' };
	return { app, intents, shard };
}

/** The app a gateway token belongs to; discord.js sends it bare, but a `Bot ` prefix is tolerated. */
export function appForToken(host: GatewayHost, token: unknown): GatewayApp | undefined {
	if (typeof token !== 'string') return undefined;
	return host.appByToken(token.startsWith('Bot ') ? token.slice(4) : token);
}

/** `[shard_id, num_shards]`, defaulting to `[0, 1]`; null when it is not a valid pair. */
function parseShard(value: unknown): [number, number] | null {
	if (value === undefined || value === null) return [0, 1];
	if (!Array.isArray(value) || value.length !== 2) return null;
	const [id, count] = value as unknown[];
	if (typeof id !== 'number' || typeof count !== 'number' || !Number.isInteger(id) || !Number.isInteger(count)) return null;
	if (count < 1 || id < 0 || id >= count) return null;
	return [id, count];
}
