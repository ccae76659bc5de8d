import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createControlRouter } from './control/controlRouter.js';
import { serveAttachment } from './control/serveAttachment.js';
import { createGatewayHost } from './createGatewayHost.js';
import { createGatewayServer } from './gateway/createGatewayServer.js';
import type { GatewayServer } from './gateway/GatewayHost.js';
import { DiscordHttpError } from './rest/errors.js';
import { discordJson } from './rest/discordJson.js';
import { restRoutes } from './rest/restRoutes.js';
import { createRestRouter } from './rest/router.js';
import { createSandboxContext } from './SandboxContext.js';
import { resolveSandboxOptions, type SandboxOptions } from './SandboxOptions.js';
import { ATTACHMENT_PATH } from './state/AttachmentStore.js';
import type { SandboxState } from './state/SandboxState.js';

/** A running sandbox: where to point discord.js, who is who, and how to stop it. */
export interface Sandbox {
	/** For discord.js's `rest.api` (routes are under `${apiUrl}/v10`). */
	apiUrl: string;
	/** The control API's base URL (`/_sandbox`). */
	controlUrl: string;
	/** The gateway's URL, as `GET /gateway/bot` returns it. */
	gatewayUrl: string;
	guildId: string;
	ownerId: string;
	channelId: string;
	/** The boss application's id (= its bot user id). */
	bossId: string;
	bossToken: string;
	workerIds: string[];
	workerTokens: string[];
	/** The live state, for tests that want to look inside. */
	state: SandboxState;
	gateway: GatewayServer;
	/** Closes the server, the gateway and every connection; resolves when the process may exit. */
	close(): Promise<void>;
}

/**
 * Starts a local Discord on one port: REST under `/api/v10` (and `/api`), the gateway on
 * `/gateway`, the control API under `/_sandbox`, and what Discord's CDN serves of it (the files
 * attached to slash commands) under `/ephemeral-attachments`. The guild is generated from `options.seed`.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const resolved = resolveSandboxOptions(options);
	const log = resolved.logger ?? pino({ level: 'silent' });
	const started = performance.now();
	const ctx = createSandboxContext(resolved, log);
	const { state } = ctx;
	log.info(
		{ members: state.members.size, apps: state.apps.length, decoratedNames: resolved.decoratedNames, ms: Math.round(performance.now() - started) },
		'guild generated',
	);

	const gateway = createGatewayServer(createGatewayHost(ctx));
	ctx.gateway = gateway;
	const rest = createRestRouter(ctx, restRoutes);
	const control = createControlRouter(ctx);

	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? '/', 'http://sandbox');
		const handled = route(url.pathname);
		handled(request, response, url).catch((error: unknown) => {
			log.error({ err: error, path: url.pathname }, 'request failed');
			if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'application/json' });
			response.end(discordJson({ message: '500: Internal Server Error', code: 0 }));
		});
	});
	const route = (path: string): ((request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>) => {
		const api = /^\/api(?:\/v(\d+))?(\/.*)?$/.exec(path);
		if (api && (api[1] === undefined || api[1] === '10')) return (request, response, url) => rest(request, response, api[2] ?? '/', url.searchParams);
		if (path === '/_sandbox' || path.startsWith('/_sandbox/'))
			return (request, response, url) => control(request, response, path.slice('/_sandbox'.length) || '/', url.searchParams);
		if (path.startsWith(ATTACHMENT_PATH)) return async (request, response, url) => serveAttachment(state, request, response, url);
		return async (request, response) => {
			request.resume();
			const error = DiscordHttpError.notFound();
			response.writeHead(error.status, { 'Content-Type': 'application/json' });
			response.end(discordJson(error.body));
		};
	};
	server.on('upgrade', (request, socket, head: Buffer) => {
		const path = new URL(request.url ?? '/', 'http://sandbox').pathname;
		if (path === '/gateway' || path === '/gateway/') gateway.handleUpgrade(request, socket, head);
		else socket.destroy();
	});

	server.listen(resolved.port, resolved.host);
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;
	const host = resolved.host === '0.0.0.0' || resolved.host === '::' ? '127.0.0.1' : resolved.host;
	const hostForUrl = host.includes(':') ? `[${host}]` : host;
	ctx.address = { host: hostForUrl, port };
	const base = `http://${hostForUrl}:${port}`;
	state.attachments.origin = base;
	log.info({ url: base }, 'sandbox listening');

	const [boss, ...workers] = state.apps;
	let closing: Promise<void> | null = null;
	return {
		apiUrl: `${base}/api`,
		controlUrl: `${base}/_sandbox`,
		gatewayUrl: `ws://${hostForUrl}:${port}/gateway`,
		guildId: state.guildId,
		ownerId: state.guild.ownerId,
		channelId: state.guild.channel.id,
		bossId: boss!.id,
		bossToken: boss!.token,
		workerIds: workers.map((app) => app.id),
		workerTokens: workers.map((app) => app.token),
		state,
		gateway,
		close() {
			closing ??= (async () => {
				await gateway.close();
				const closed = once(server, 'close');
				server.close();
				server.closeAllConnections();
				await closed;
				log.info('sandbox closed');
			})();
			return closing;
		},
	};
}
