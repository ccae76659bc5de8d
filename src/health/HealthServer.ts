import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { MetricsSettings } from '../config/index.js';
import { ConfigError } from '../errors.js';

/** What the server answers from. */
export interface HealthRoutes {
	/** Why the service is not ready, or `undefined` when it is: `/readyz`. */
	whyNotReady(): string | undefined;
	/** `/metrics`: every metric in the Prometheus text format, and its content type. */
	metrics(): Promise<{ contentType: string; body: string }>;
}

const PATHS = 'the paths are /healthz, /readyz and /metrics';

/**
 * The HTTP server for probes and scrapes (node:http, nothing else): `/healthz` answers 200 while
 * the process's event loop runs (answering at all is the proof), `/readyz` 200 when ready and 503
 * with the reason otherwise, `/metrics` the Prometheus text. GET and HEAD only; nothing it
 * answers holds a token or a member's data.
 */
export class HealthServer {
	readonly #server: Server;
	/** Where it listens, as bound (the port chosen, when 0 was asked for). */
	readonly address: AddressInfo;

	private constructor(server: Server) {
		this.#server = server;
		this.address = server.address() as AddressInfo;
	}

	/** `http://127.0.0.1:9464`: the base of the three paths. */
	get url(): string {
		const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
		return `http://${host}:${this.address.port}`;
	}

	/**
	 * Listens on `settings.host` and `settings.port` (0 picks a free port, for tests).
	 *
	 * @throws {ConfigError} naming the key when the address cannot be had: the port in use or
	 *   privileged, the host not one of the machine's.
	 */
	static async listen(settings: MetricsSettings, routes: HealthRoutes, logger: Logger): Promise<HealthServer> {
		const server = createServer((request, response) =>
			// Whatever a request holds, it must not become an unhandled rejection: that would end the process.
			answer(request, response, routes, logger).catch((error: unknown) => {
				logger.warn({ err: error }, 'could not answer a health or metrics request');
				if (!response.headersSent) response.writeHead(500);
				response.end();
			}),
		);
		// A probe or a scrape is small and quick: one that dawdles is cut off.
		server.requestTimeout = 10_000;
		server.headersTimeout = 5_000;
		server.listen(settings.port, settings.host);
		try {
			await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error))]);
		} catch (error) {
			throw listenError(error as NodeJS.ErrnoException, settings);
		}
		const listening = new HealthServer(server);
		logger.info({ url: listening.url }, 'serving /healthz, /readyz and /metrics');
		return listening;
	}

	/** Stops listening and drops every connection, kept-alive ones included (a scraper's). */
	async close(): Promise<void> {
		const closed = once(this.#server, 'close');
		this.#server.close();
		this.#server.closeAllConnections();
		await closed;
	}
}

async function answer(request: IncomingMessage, response: ServerResponse, routes: HealthRoutes, logger: Logger): Promise<void> {
	const send = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): void => {
		response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
		response.end(request.method === 'HEAD' ? undefined : body);
	};
	if (request.method !== 'GET' && request.method !== 'HEAD') {
		response.setHeader('allow', 'GET, HEAD');
		return send(405, `${request.method} is not answered here: use GET (${PATHS})\n`);
	}
	// The path alone: a query is ignored, and a request target that is no URL is answered as one that is nowhere.
	const path = URL.parse(request.url ?? '/', 'http://localhost')?.pathname ?? request.url ?? '/';
	switch (path) {
		case '/healthz':
			return send(200, 'ok\n');
		case '/readyz': {
			const why = routes.whyNotReady();
			return why === undefined ? send(200, 'ready\n') : send(503, `not ready: ${why}\n`);
		}
		case '/metrics':
			try {
				const { contentType, body } = await routes.metrics();
				return send(200, body, contentType);
			} catch (error) {
				logger.warn({ err: error }, 'could not collect the metrics');
				return send(500, 'could not collect the metrics; the log says why\n');
			}
		default:
			return send(404, `nothing at ${path}: ${PATHS}\n`);
	}
}

function listenError(error: NodeJS.ErrnoException, { host, port }: MetricsSettings): Error {
	const code = error.code ?? error.message;
	switch (error.code) {
		case 'EADDRINUSE':
			return new ConfigError([
				{ key: 'MASSNICK_METRICS_PORT', message: `port ${port} is in use on ${host} (${code}); choose another port, or stop what listens there` },
			]);
		case 'EACCES':
			return new ConfigError([
				{ key: 'MASSNICK_METRICS_PORT', message: `port ${port} may not be opened by this user on ${host} (${code}); choose a port from 1024 up` },
			]);
		case 'EADDRNOTAVAIL':
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return new ConfigError([
				{
					key: 'MASSNICK_METRICS_HOST',
					message: `${host} is not an address of this machine (${code}); give one of its addresses, 0.0.0.0 for every interface, or leave it unset for 127.0.0.1`,
				},
			]);
		default:
			return new ConfigError([{ key: 'MASSNICK_METRICS_PORT', message: `cannot listen on ${host} port ${port} (${code})` }]);
	}
}
