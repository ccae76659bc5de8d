import { Buffer } from 'node:buffer';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import {
	GatewayDispatchEvents,
	GatewayIntentBits,
	GatewayOpcodes,
	type GatewayGuildMembersChunkDispatchData,
	type GatewayRateLimitedRequestGuildMembersDispatchData,
} from 'discord-api-types/v10';
import { WebSocket } from 'ws';
import { exactChunks } from './exactChunks.js';
import type { GatewayHost } from './GatewayHost.js';
import type { GatewaySession } from './GatewaySession.js';
import type { MemberRequestLimiter } from './MemberRequestLimiter.js';

/** Discord's chunk size; discord.js relies on every chunk but the last being full. */
const CHUNK_SIZE = 1000;
/** Most members a `query` or `user_ids` request returns. */
const MAX_SMALL_REQUEST = 100;
/** Longest nonce Discord echoes, in bytes. */
const MAX_NONCE_BYTES = 32;
/** Stop queueing chunks while this much is still waiting in the socket's send buffer. */
const HIGH_WATER_BYTES = 1 << 20;

/**
 * Answers Request Guild Members (op 8) with GUILD_MEMBERS_CHUNK dispatches
 * ({@link https://discord.com/developers/docs/events/gateway-events#request-guild-members | Request Guild Members}).
 *
 * Malformed requests and requests from sessions without the GuildMembers intent are ignored, as
 * Discord does: the client's fetch times out rather than the connection closing. The whole-list
 * form is streamed one 1000-member chunk at a time, yielding to the event loop and waiting for the
 * socket to drain, so a million-member guild never sits in memory as JSON.
 */
export async function requestGuildMembers(host: GatewayHost, limiter: MemberRequestLimiter, session: GatewaySession, data: unknown): Promise<void> {
	const request = parseRequest(data);
	if (typeof request === 'string') {
		host.log({ appId: session.appId, sessionId: session.id, reason: request }, 'gateway: ignored op 8');
		return;
	}
	if ((session.intents & GatewayIntentBits.GuildMembers) === 0) {
		host.log({ appId: session.appId, sessionId: session.id }, 'gateway: ignored op 8 without the GuildMembers intent');
		return;
	}
	const { guildId, nonce } = request;
	if (!session.inGuild(guildId)) return;
	const base = nonce === undefined ? { guild_id: guildId } : { guild_id: guildId, nonce };

	if (request.userIds !== undefined) {
		const { members, notFound } = host.membersByIds(guildId, request.userIds);
		sendChunk(session, { ...base, members, chunk_index: 0, chunk_count: 1, not_found: notFound });
		return;
	}
	if (request.query !== '' || request.limit !== 0) {
		const limit = request.limit === 0 ? MAX_SMALL_REQUEST : Math.min(request.limit, MAX_SMALL_REQUEST);
		const members = host.membersByQuery(guildId, request.query, limit);
		sendChunk(session, { ...base, members, chunk_index: 0, chunk_count: 1 });
		return;
	}

	const waitMs = limiter.take(session.appId, guildId);
	if (waitMs > 0) {
		const rateLimited = {
			opcode: GatewayOpcodes.RequestGuildMembers,
			retry_after: waitMs / 1000,
			meta: base,
		} satisfies GatewayRateLimitedRequestGuildMembersDispatchData;
		session.dispatch(GatewayDispatchEvents.RateLimited, JSON.stringify(rateLimited));
		return;
	}
	await streamAllMembers(host, session, base);
}

async function streamAllMembers(host: GatewayHost, session: GatewaySession, base: { guild_id: string; nonce?: string }): Promise<void> {
	const memberCount = host.guildCreate(session.appId, base.guild_id).member_count;
	const expectedChunks = Math.max(1, Math.ceil(memberCount / CHUNK_SIZE));
	let index = 0;
	for (const members of exactChunks(host.memberChunks(base.guild_id, CHUNK_SIZE), CHUNK_SIZE)) {
		if (!(await untilWritable(session))) return;
		// Members may join mid-stream; chunk_count must never claim fewer chunks than were sent.
		sendChunk(session, { ...base, members, chunk_index: index, chunk_count: Math.max(expectedChunks, index + 1) });
		index++;
		await (host.timing.chunkDelayMs > 0 ? sleep(host.timing.chunkDelayMs) : yieldToEventLoop());
	}
	// An empty guild still answers, or the client would wait for its timeout.
	if (index === 0) sendChunk(session, { ...base, members: [], chunk_index: 0, chunk_count: 1 });
}

/**
 * Waits until the session has an open socket with room in its send buffer. While the session is
 * disconnected and resumable the stream pauses, and carries on over the resumed connection.
 */
async function untilWritable(session: GatewaySession): Promise<boolean> {
	for (;;) {
		if (session.ended) return false;
		const socket = session.socket;
		if (socket?.readyState === WebSocket.OPEN && socket.bufferedAmount <= HIGH_WATER_BYTES) return true;
		await sleep(socket ? 2 : 20);
	}
}

function sendChunk(session: GatewaySession, chunk: GatewayGuildMembersChunkDispatchData): void {
	session.dispatch(GatewayDispatchEvents.GuildMembersChunk, JSON.stringify(chunk));
}

interface ParsedRequest {
	guildId: string;
	nonce: string | undefined;
	userIds: string[] | undefined;
	query: string;
	limit: number;
}

/** The request, or why it is ignored. */
function parseRequest(data: unknown): ParsedRequest | string {
	if (typeof data !== 'object' || data === null) return 'd is not an object';
	const d = data as Record<string, unknown>;
	if (typeof d.guild_id !== 'string' || !/^\d{1,20}$/.test(d.guild_id)) return 'guild_id is not a snowflake';
	// Discord ignores an over-long nonce: the chunks then carry none.
	const nonce = typeof d.nonce === 'string' && Buffer.byteLength(d.nonce) <= MAX_NONCE_BYTES ? d.nonce : undefined;
	const request: ParsedRequest = { guildId: d.guild_id, nonce, userIds: undefined, query: '', limit: 0 };
	if (d.user_ids !== undefined && d.user_ids !== null) {
		const ids = Array.isArray(d.user_ids) ? (d.user_ids as unknown[]) : [d.user_ids];
		if (ids.length > MAX_SMALL_REQUEST) return `more than ${MAX_SMALL_REQUEST} user_ids`;
		request.userIds = ids.map(String);
		return request;
	}
	if (typeof d.query !== 'string') return 'neither query nor user_ids';
	if (typeof d.limit !== 'number' || !Number.isInteger(d.limit) || d.limit < 0) return 'limit is not a non-negative integer';
	request.query = d.query;
	request.limit = d.limit;
	return request;
}
