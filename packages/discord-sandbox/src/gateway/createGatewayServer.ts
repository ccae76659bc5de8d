import { Buffer } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes } from 'discord-api-types/v10';
import { WebSocketServer, type WebSocket } from 'ws';
import { deliverDispatch } from './deliverDispatch.js';
import { GatewayConnection, type ConnectionContext } from './GatewayConnection.js';
import type { GatewayHost, GatewayServer } from './GatewayHost.js';
import type { GatewaySession } from './GatewaySession.js';
import { MemberRequestLimiter } from './MemberRequestLimiter.js';

/** Knobs tests may turn; the defaults are what the sandbox runs with. */
export interface GatewayServerOptions {
	/** Close a connection that neither identifies nor resumes within this long (default 60 s). */
	identifyTimeoutMs?: number;
	/** Dispatches kept per session for Resume (default 10,000). */
	replayBufferEntries?: number;
	/** JSON bytes kept per session for Resume (default 16 MiB), so chunk streams stay bounded. */
	replayBufferBytes?: number;
}

/** The only API version the sandbox speaks; discord.js 14 connects with `v=10`. */
const API_VERSION = '10';

/**
 * Creates the sandbox's gateway: the WebSocket side of Discord that an unmodified discord.js 14
 * `Client` connects to ({@link https://discord.com/developers/docs/events/gateway | Gateway}).
 *
 * It owns no HTTP server: `startSandbox` routes upgrades on `/gateway` to {@link GatewayServer.handleUpgrade}.
 * Everything it knows about apps, guilds and members comes from `host`, and every event the
 * sandbox produces arrives through `host.subscribe`.
 */
export function createGatewayServer(host: GatewayHost, options: GatewayServerOptions = {}): GatewayServer {
	// Oversized payloads must reach our handler to be closed with 4002, not ws's own 1009.
	const wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20, perMessageDeflate: false });
	const connections = new Set<GatewayConnection>();
	const sessions = new Map<string, GatewaySession>();
	const context: ConnectionContext = {
		host,
		sessions,
		memberRequests: new MemberRequestLimiter(host.timing.memberRequestWindowMs),
		replayLimits: {
			entries: options.replayBufferEntries ?? 10_000,
			bytes: options.replayBufferBytes ?? 16 * 1024 * 1024,
		},
		identifyTimeoutMs: options.identifyTimeoutMs ?? 60_000,
		onClosed: (connection) => connections.delete(connection),
	};
	const unsubscribe = host.subscribe((event) => deliverDispatch(event, sessions.values()));
	let closed = false;

	function accept(socket: WebSocket, request: IncomingMessage, version: string | null): void {
		const hostHeader = request.headers.host ?? `${request.socket.localAddress}:${request.socket.localPort}`;
		const connection = new GatewayConnection(socket, context, `ws://${hostHeader}/gateway`);
		connections.add(connection);
		if (version !== null && version !== API_VERSION) {
			connection.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version.');
		}
	}

	function matching(appId: string | undefined): GatewayConnection[] {
		return [...connections].filter((connection) => appId === undefined || connection.session?.appId === appId);
	}

	return {
		handleUpgrade(request, socket, head) {
			const url = new URL(request.url ?? '/', 'http://sandbox');
			if (closed || (url.pathname !== '/gateway' && url.pathname !== '/gateway/')) {
				refuse(socket, 404, 'Not Found', 'No gateway here: connect to /gateway.');
				return;
			}
			const compress = url.searchParams.get('compress');
			if (compress !== null) {
				// discord.js asks for zlib-stream only when the optional zlib-sync package is installed.
				refuse(socket, 400, 'Bad Request', `The sandbox gateway does not support compress=${compress}; uninstall zlib-sync.`);
				return;
			}
			const encoding = url.searchParams.get('encoding');
			if (encoding !== null && encoding !== 'json') {
				refuse(socket, 400, 'Bad Request', `The sandbox gateway supports encoding=json only, not ${encoding}.`);
				return;
			}
			wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request, url.searchParams.get('v')));
		},

		closeConnections({ appId, code = GatewayCloseCodes.UnknownError } = {}) {
			const targets = matching(appId);
			for (const connection of targets) connection.close(code, 'Closed by the sandbox.');
			return targets.length;
		},

		requestReconnect({ appId } = {}) {
			return matching(appId).filter((connection) => connection.requestReconnect()).length;
		},

		connections() {
			const live = [...connections].map((connection) => ({
				appId: connection.session?.appId ?? '',
				sessionId: connection.session?.id ?? '',
				state: connection.state,
				intents: connection.session?.intents ?? 0,
			}));
			const waiting = [...sessions.values()]
				.filter((session) => session.socket === null)
				.map((session) => ({ appId: session.appId, sessionId: session.id, state: 'closed' as const, intents: session.intents }));
			return [...live, ...waiting];
		},

		async close() {
			if (closed) return;
			closed = true;
			unsubscribe();
			for (const session of sessions.values()) session.end();
			sessions.clear();
			for (const connection of connections) connection.socket.terminate();
			connections.clear();
			await new Promise<void>((resolve) => wss.close(() => resolve()));
		},
	};
}

/** Answers an upgrade we will not accept with a plain HTTP error, so the client sees why. */
function refuse(socket: Duplex, status: number, statusText: string, message: string): void {
	const body = JSON.stringify({ message, code: 0 });
	socket.end(
		`HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
	);
}
