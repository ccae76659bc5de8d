import { GatewayDispatchEvents } from 'discord-api-types/v10';
import { WebSocket } from 'ws';
import { encodeDispatch } from './encodePayload.js';
import type { SandboxDispatch } from './GatewayHost.js';
import { ReplayBuffer } from './ReplayBuffer.js';
import { shardIdForGuild } from './shardIdForGuild.js';

/** What a session was identified with; fixed for its whole life, across resumes. */
export interface SessionIdentity {
	id: string;
	appId: string;
	intents: number;
	shard: [shardId: number, shardCount: number];
	guildIds: Iterable<string>;
}

/** Limits on what a session keeps for replay. */
export interface ReplayLimits {
	entries: number;
	bytes: number;
}

/**
 * One gateway session: what survives a dropped connection and is picked up again by Resume.
 *
 * The session, not the socket, owns the sequence numbers and the replay buffer. Events keep being
 * numbered and buffered while no socket is attached, which is what lets a client that resumes
 * receive every event it missed
 * ({@link https://discord.com/developers/docs/events/gateway#resuming | Resuming}).
 */
export class GatewaySession {
	public readonly id: string;
	public readonly appId: string;
	public readonly intents: number;
	public readonly shard: [shardId: number, shardCount: number];
	readonly #guildIds: Set<string>;
	readonly #buffer: ReplayBuffer;
	#sequence = 0;
	#socket: WebSocket | null = null;
	#expiry: NodeJS.Timeout | null = null;
	#ended = false;

	public constructor(identity: SessionIdentity, limits: ReplayLimits) {
		this.id = identity.id;
		this.appId = identity.appId;
		this.intents = identity.intents;
		this.shard = identity.shard;
		this.#guildIds = new Set(identity.guildIds);
		this.#buffer = new ReplayBuffer(limits.entries, limits.bytes);
	}

	/** The last sequence number handed out. */
	public get sequence(): number {
		return this.#sequence;
	}

	/** The socket currently carrying this session, or null while it waits to be resumed. */
	public get socket(): WebSocket | null {
		return this.#socket;
	}

	/** True once the session can no longer be resumed; streams for it stop. */
	public get ended(): boolean {
		return this.#ended;
	}

	public attach(socket: WebSocket): void {
		this.#clearExpiry();
		this.#socket = socket;
	}

	/** Detaches the socket and keeps the session resumable for `resumeWindowMs`. */
	public detach(resumeWindowMs: number, onExpire: () => void): void {
		this.#socket = null;
		this.#clearExpiry();
		this.#expiry = setTimeout(() => {
			this.end();
			onExpire();
		}, resumeWindowMs);
		this.#expiry.unref();
	}

	public end(): void {
		this.#ended = true;
		this.#socket = null;
		this.#clearExpiry();
	}

	/** Whether this session's client should see `event` (app, intent, guild and shard filters). */
	public wants(event: SandboxDispatch): boolean {
		if (event.appId !== undefined && event.appId !== this.appId) return false;
		if (event.guildId !== '') {
			if (!this.#guildIds.has(event.guildId) && event.t !== GatewayDispatchEvents.GuildCreate) return false;
			if (shardIdForGuild(event.guildId, this.shard[1]) !== this.shard[0]) return false;
		}
		return event.intent === null || (this.intents & event.intent) !== 0 || event.alsoToUserId === this.appId;
	}

	/**
	 * Numbers, buffers and (if a socket is attached) sends one dispatch.
	 *
	 * `replay` says what a later Resume does with it: `'buffer'` replays it (every ordinary event),
	 * `'skip'` never replays it (RESUMED itself), `'barrier'` makes everything up to it unreplayable
	 * (READY: a client that never saw READY has nothing to resume).
	 */
	public dispatch(eventName: string, dataJson: string, replay: 'buffer' | 'skip' | 'barrier' = 'buffer'): void {
		const s = ++this.#sequence;
		if (replay === 'buffer') this.#buffer.push({ s, t: eventName, d: dataJson });
		else if (replay === 'barrier') this.#buffer.forgetThrough(s);
		const socket = this.#socket;
		if (socket?.readyState === WebSocket.OPEN) socket.send(encodeDispatch(s, eventName, dataJson));
	}

	/** Whether a client that last saw `sequence` can be brought up to date by replaying. */
	public canResumeFrom(sequence: number): boolean {
		return sequence <= this.#sequence && sequence >= this.#buffer.droppedThrough;
	}

	/** Sends everything after `sequence` to the attached socket; returns how many were replayed. */
	public replayAfter(sequence: number): number {
		const socket = this.#socket;
		if (socket?.readyState !== WebSocket.OPEN) return 0;
		let replayed = 0;
		for (const entry of this.#buffer.after(sequence)) {
			socket.send(encodeDispatch(entry.s, entry.t, entry.d));
			replayed++;
		}
		return replayed;
	}

	/** Keeps the guild filter in step with the GUILD_CREATE / GUILD_DELETE this session is sent. */
	public joinGuild(guildId: string): void {
		this.#guildIds.add(guildId);
	}

	public inGuild(guildId: string): boolean {
		return this.#guildIds.has(guildId);
	}

	public leaveGuild(guildId: string): void {
		this.#guildIds.delete(guildId);
	}

	#clearExpiry(): void {
		if (this.#expiry) clearTimeout(this.#expiry);
		this.#expiry = null;
	}
}
