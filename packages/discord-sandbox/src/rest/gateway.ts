import type { APIGatewayBotInfo } from 'discord-api-types/v10';
import type { SandboxContext } from '../SandboxContext.js';
import type { Route } from './Route.js';

function gatewayUrl(ctx: SandboxContext): string {
	return `ws://${ctx.address.host}:${ctx.address.port}/gateway`;
}

/**
 * Where to connect: discord.js asks `/gateway/bot` with its token (401 becomes TokenInvalid) and
 * connects to the `url` it returns.
 *
 * @see {@link https://discord.com/developers/docs/events/gateway#get-gateway-bot}
 */
export const gatewayRoutes: Route[] = [
	{
		method: 'GET',
		path: '/gateway/bot',
		bucket: 'default',
		auth: 'bot',
		handle({ ctx }) {
			const body: APIGatewayBotInfo = {
				url: gatewayUrl(ctx),
				shards: 1,
				session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
			};
			return { status: 200, body };
		},
	},
	{
		method: 'GET',
		path: '/gateway',
		bucket: 'default',
		auth: 'none',
		handle({ ctx }) {
			return { status: 200, body: { url: gatewayUrl(ctx) } };
		},
	},
];
