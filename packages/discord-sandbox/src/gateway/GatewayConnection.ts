import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from 'discord-api-types/v10';
import { WebSocket, type RawData } from 'ws';
import { buildReady } from './buildReady.js';
import { encodeControl } from './encodePayload.js';
import type { GatewayHost } from './GatewayHost.js';
import { GatewaySession, type ReplayLimits } from './GatewaySession.js';
import type { MemberRequestLimiter } from './MemberRequestLimiter.js';
import { appForToken, parseIdentify } from './parseIdentify.js';
import { requestGuildMembers } from './requestGuildMembers.js';
import { SendWindow } from './SendWindow.js';
import { sessionSurvivesClose } from './sessionSurvivesClose.js';
import { shardIdForGuild } from './shardIdForGuild.js';

/** Largest payload a client may send; bigger ones are closed with 4002. */
const MAX_CLIENT_PAYLOAD_BYTES = 4096;

/** Ops a client may send after identifying that the sandbox accepts and ignores. */
const IGNORED_CLIENT_OPS: ReadonlySet<number> = new Set([
	GatewayOpcodes.PresenceUpdate,
	GatewayOpcodes.VoiceStateUpdate,
	GatewayOpcodes.RequestSoundboardSounds,
	GatewayOpcodes.RequestChannelInfo,
]);

/** What every connection shares: the host, the live sessions, the op 8 limiter, the knobs. */
export interface ConnectionContext {
	host: GatewayHost;
	sessions: Map<string, GatewaySession>;
	memberRequests: MemberRequestLimiter;
	replayLimits: ReplayLimits;
	/** Close a connection that has neither identified nor resumed after this long. */
	identifyTimeoutMs: number;
	onClosed(connection: GatewayConnection): void;
}

/**
 * One WebSocket connection to the gateway: Hello, heartbeats, Identify or Resume, op 8, and the
 * close codes Discord uses when a client breaks the rules
 * ({@link https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes | close codes}).
 *
 * A connection carries at most one {@link GatewaySession}; the session outlives it if the
 * connection drops in a resumable way.
 */
export class GatewayConnection {
	public session: GatewaySession | null = null;
	readonly #sendWindow: SendWindow;
	#identifyTimer: NodeJS.Timeout | null;
	/** The code the server closed with, once it has started closing. */
	#serverCloseCode: number | null = null;
	#closed = false;

	public constructor(
		public readonly socket: WebSocket,
		private readonly context: ConnectionContext,
		private readonly resumeGatewayUrl: string,
	) {
		const { timing } = context.host;
		this.#sendWindow = new SendWindow(timing.sendLimit, timing.sendWindowMs);
		socket.on('message', (data, isBinary) => this.#onMessage(data, isBinary));
		socket.on('close', (code) => this.#onClose(code));
		socket.on('error', (error) => context.host.log({ err: error.message }, 'gateway: socket error'));
		this.#identifyTimer = setTimeout(() => {
			if (this.session === null) this.close(GatewayCloseCodes.SessionTimedOut, 'Identify or Resume never arrived');
		}, context.identifyTimeoutMs);
		this.#identifyTimer.unref();
		this.#sendControl(GatewayOpcodes.Hello, { heartbeat_interval: timing.heartbeatIntervalMs });
	}

	public get state(): 'identifying' | 'ready' | 'closed' {
		if (this.#closed) return 'closed';
		return this.session === null ? 'identifying' : 'ready';
	}

	/** Closes from the server side; whether the session survives depends on the code. */
	public close(code: number, reason = ''): void {
		if (this.#serverCloseCode !== null || this.#closed) return;
		this.#serverCloseCode = code;
		if (code !== 1000) this.context.host.log({ appId: this.session?.appId, code, reason }, 'gateway: closing connection');
		if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
			this.socket.close(code, reason);
		}
	}

	/** Sends op 7: the client should reconnect and resume. */
	public requestReconnect(): boolean {
		if (this.session === null || this.#serverCloseCode !== null) return false;
		return this.#sendControl(GatewayOpcodes.Reconnect, null);
	}

	#onMessage(data: RawData, isBinary: boolean): void {
		if (this.#serverCloseCode !== null || this.#closed) return;
		if (!this.#sendWindow.record()) {
			this.close(GatewayCloseCodes.RateLimited, 'You are being rate limited.');
			return;
		}
		const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
		if (buffer.length > MAX_CLIENT_PAYLOAD_BYTES) {
			this.close(GatewayCloseCodes.DecodeError, 'Payload too large.');
			return;
		}
		let payload: unknown;
		try {
			payload = JSON.parse(buffer.toString('utf8'));
		} catch {
			this.close(GatewayCloseCodes.DecodeError, isBinary ? 'Only JSON encoding is supported.' : 'Error while decoding payload.');
			return;
		}
		if (typeof payload !== 'object' || payload === null || !Number.isInteger((payload as { op?: unknown }).op)) {
			this.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
			return;
		}
		const { op, d } = payload as { op: number; d?: unknown };
		try {
			this.#handle(op, d);
		} catch (error) {
			this.context.host.log({ op, err: error instanceof Error ? error.message : String(error) }, 'gateway: handler failed');
			this.close(GatewayCloseCodes.UnknownError, 'Unknown error.');
		}
	}

	#handle(op: number, d: unknown): void {
		switch (op) {
			case GatewayOpcodes.Heartbeat:
				this.#sendControl(GatewayOpcodes.HeartbeatAck, null);
				return;
			case GatewayOpcodes.Identify:
				if (this.session !== null) this.close(GatewayCloseCodes.AlreadyAuthenticated, 'You sent more than one identify payload.');
				else this.#identify(d);
				return;
			case GatewayOpcodes.Resume:
				if (this.session !== null) this.close(GatewayCloseCodes.AlreadyAuthenticated, 'You sent more than one identify payload.');
				else this.#resume(d);
				return;
			case GatewayOpcodes.RequestGuildMembers: {
				const session = this.session;
				if (session === null) {
					this.close(GatewayCloseCodes.NotAuthenticated, 'You sent a payload prior to identifying.');
					return;
				}
				requestGuildMembers(this.context.host, this.context.memberRequests, session, d).catch((error: unknown) => {
					this.context.host.log({ err: error instanceof Error ? error.message : String(error) }, 'gateway: op 8 failed');
				});
				return;
			}
			default:
				if (!IGNORED_CLIENT_OPS.has(op)) this.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
				else if (this.session === null) this.close(GatewayCloseCodes.NotAuthenticated, 'You sent a payload prior to identifying.');
		}
	}

	#identify(data: unknown): void {
		const identify = parseIdentify(this.context.host, data);
		if ('close' in identify) {
			this.close(identify.close, identify.reason);
			return;
		}
		const { app, intents, shard } = identify;
		const ready = this.context.host.readyData(app.id);
		const guildIds = ready.guildIds.filter((guildId) => shardIdForGuild(guildId, shard[1]) === shard[0]);
		const session = new GatewaySession({ id: randomBytes(16).toString('hex'), appId: app.id, intents, shard, guildIds }, this.context.replayLimits);
		this.#bind(session);
		this.context.sessions.set(session.id, session);
		const readyData = buildReady(ready, { id: session.id, shard, guildIds }, this.resumeGatewayUrl);
		session.dispatch(GatewayDispatchEvents.Ready, JSON.stringify(readyData), 'barrier');
		for (const guildId of guildIds) {
			session.dispatch(GatewayDispatchEvents.GuildCreate, JSON.stringify(this.context.host.guildCreate(app.id, guildId)));
		}
		this.context.host.log({ appId: app.id, sessionId: session.id, intents, shard }, 'gateway: identified');
	}

	#resume(data: unknown): void {
		const d = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
		const app = appForToken(this.context.host, d.token);
		if (app === undefined) {
			this.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
			return;
		}
		const session = typeof d.session_id === 'string' ? this.context.sessions.get(d.session_id) : undefined;
		const seq = d.seq;
		if (session === undefined || session.appId !== app.id || session.ended) {
			this.#invalidSession({ appId: app.id, reason: 'unknown or expired session' });
			return;
		}
		if (typeof seq !== 'number' || !Number.isInteger(seq) || !session.canResumeFrom(seq)) {
			// The client asked for events we no longer hold (or never sent): the session is lost.
			session.end();
			this.context.sessions.delete(session.id);
			this.#invalidSession({ appId: app.id, sessionId: session.id, seq, reason: 'cannot replay from seq' });
			return;
		}
		// A client may resume before the server noticed its old socket die; the new socket wins.
		const previous = session.socket;
		this.#bind(session);
		if (previous !== null && previous !== this.socket) previous.terminate();
		const replayed = session.replayAfter(seq);
		session.dispatch(GatewayDispatchEvents.Resumed, 'null', 'skip');
		this.context.host.log({ appId: app.id, sessionId: session.id, seq, replayed }, 'gateway: resumed');
	}

	#bind(session: GatewaySession): void {
		if (this.#identifyTimer) clearTimeout(this.#identifyTimer);
		this.#identifyTimer = null;
		session.attach(this.socket);
		this.session = session;
	}

	/** Op 9 `false`: the client must identify again; the connection stays open for that. */
	#invalidSession(details: Record<string, unknown>): void {
		this.context.host.log(details, 'gateway: invalid session');
		this.#sendControl(GatewayOpcodes.InvalidSession, false);
	}

	#onClose(code: number): void {
		this.#closed = true;
		if (this.#identifyTimer) clearTimeout(this.#identifyTimer);
		this.#identifyTimer = null;
		this.context.onClosed(this);
		const session = this.session;
		if (session === null || session.socket !== this.socket) return;
		const serverCode = this.#serverCloseCode;
		if (sessionSurvivesClose(serverCode ?? code, serverCode !== null)) {
			session.detach(this.context.host.timing.resumeWindowMs, () => {
				if (this.context.sessions.get(session.id) === session) this.context.sessions.delete(session.id);
			});
		} else {
			session.end();
			this.context.sessions.delete(session.id);
		}
	}

	#sendControl(op: GatewayOpcodes, data: unknown): boolean {
		if (this.socket.readyState !== WebSocket.OPEN) return false;
		this.socket.send(encodeControl(op, data));
		return true;
	}
}
