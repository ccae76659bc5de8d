import { once } from 'node:events';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayIntentBits, GatewayOpcodes } from 'discord-api-types/v10';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startFakeSandbox, waitFor, type FakeApp, type FakeSandbox } from './sandbox-gateway-host.js';

const GUILD_ID = '200000000000000000';
const EMPTY_GUILD_ID = '200000000000000001';
const boss: FakeApp = { id: '100000000000000010', token: 'boss.token.0', username: 'Boss', privileged: GatewayIntentBits.GuildMembers };
const plain: FakeApp = { id: '100000000000000012', token: 'plain.token.2', username: 'Plain', privileged: 0 };
const SEND_LIMIT = 6;
const MEMBER_INTENTS = GatewayIntentBits.Guilds | GatewayIntentBits.GuildMembers;

interface Frame {
	op: number;
	d: any;
	s: number | null;
	t: string | null;
}

/** A bare WebSocket client that records every frame, for what discord.js never does on purpose. */
class RawClient {
	public readonly frames: Frame[] = [];
	public readonly closed: Promise<{ code: number; reason: string }>;

	public constructor(public readonly ws: WebSocket) {
		ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as Frame));
		this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
	}

	public send(payload: unknown): void {
		this.ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
	}

	public async next(predicate: (frame: Frame) => boolean, what: string): Promise<Frame> {
		await waitFor(() => this.frames.some(predicate), what, 5000);
		return this.frames.find(predicate)!;
	}

	public dispatches(t: string): Frame[] {
		return this.frames.filter((frame) => frame.op === GatewayOpcodes.Dispatch && frame.t === t);
	}

	public identify(token = boss.token, intents = MEMBER_INTENTS, extra: Record<string, unknown> = {}): void {
		this.send({ op: GatewayOpcodes.Identify, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra } });
	}

	public async ready(): Promise<Frame> {
		return this.next((frame) => frame.t === GatewayDispatchEvents.Ready, 'READY');
	}
}

describe('sandbox gateway: the wire protocol', () => {
	let sandbox: FakeSandbox;
	const clients: RawClient[] = [];

	async function connect(query = '?v=10&encoding=json', path = '/gateway'): Promise<RawClient> {
		const ws = new WebSocket(`ws://127.0.0.1:${sandbox.port}${path}${query}`);
		const client = new RawClient(ws);
		clients.push(client);
		await once(ws, 'open');
		return client;
	}

	beforeAll(async () => {
		sandbox = await startFakeSandbox({
			apps: [boss, plain],
			guilds: [
				{ id: GUILD_ID, name: 'Test Guild', humans: 10, appIds: [boss.id, plain.id] },
				{ id: EMPTY_GUILD_ID, name: 'Empty', humans: 0, appIds: [boss.id], noMembers: true },
			],
			timing: { sendLimit: SEND_LIMIT, heartbeatIntervalMs: 45_000 },
			server: { identifyTimeoutMs: 400, replayBufferEntries: 8 },
		});
	});

	afterAll(async () => {
		for (const client of clients) client.ws.terminate();
		await sandbox?.close();
	});

	it('sends Hello at once and ACKs every heartbeat, with null s and t', async () => {
		const client = await connect();
		const hello = await client.next((frame) => frame.op === GatewayOpcodes.Hello, 'Hello');
		expect(hello).toEqual({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: 45_000 }, s: null, t: null });
		client.send({ op: GatewayOpcodes.Heartbeat, d: null });
		client.send({ op: GatewayOpcodes.Heartbeat, d: null });
		await waitFor(() => client.frames.filter((frame) => frame.op === GatewayOpcodes.HeartbeatAck).length === 2, 'two ACKs');
		expect(client.frames.find((frame) => frame.op === GatewayOpcodes.HeartbeatAck)).toMatchObject({ s: null, t: null });
	});

	it.each([
		['an op before Identify', { op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, query: '', limit: 0 } }, GatewayCloseCodes.NotAuthenticated],
		['invalid JSON', '{"op": 1,', GatewayCloseCodes.DecodeError],
		['a payload over 4096 bytes', { op: GatewayOpcodes.Heartbeat, d: null, padding: 'x'.repeat(4100) }, GatewayCloseCodes.DecodeError],
		['an unknown opcode', { op: 99, d: null }, GatewayCloseCodes.UnknownOpcode],
		['a payload that is not an object with an op', '[1, 2]', GatewayCloseCodes.DecodeError],
	])('closes on %s', async (_, payload, code) => {
		const client = await connect();
		client.send(payload);
		expect((await client.closed).code).toBe(code);
	});

	it.each([
		['an unknown token', { token: 'nope.token.x' }, GatewayCloseCodes.AuthenticationFailed],
		['intent bits Discord does not define', { intents: 1 << 30 }, GatewayCloseCodes.InvalidIntents],
		['a missing intents field', { intents: undefined }, GatewayCloseCodes.InvalidIntents],
		[
			'a privileged intent the app lacks',
			{ token: plain.token, intents: GatewayIntentBits.Guilds | GatewayIntentBits.MessageContent },
			GatewayCloseCodes.DisallowedIntents,
		],
		['an invalid shard', { shard: [1, 1] }, GatewayCloseCodes.InvalidShard],
	])('closes an Identify with %s', async (_, override, code) => {
		const client = await connect();
		client.send({
			op: GatewayOpcodes.Identify,
			d: { token: boss.token, intents: MEMBER_INTENTS, properties: { os: 'linux', browser: 'test', device: 'test' }, ...override },
		});
		expect((await client.closed).code).toBe(code);
	});

	it('accepts non-privileged intents without them being switched on', async () => {
		const client = await connect();
		client.identify(plain.token, GatewayIntentBits.Guilds | GatewayIntentBits.GuildMessages);
		expect((await client.ready()).d.user.id).toBe(plain.id);
	});

	it('closes a second Identify with 4005', async () => {
		const client = await connect();
		client.identify();
		await client.ready();
		client.identify();
		expect((await client.closed).code).toBe(GatewayCloseCodes.AlreadyAuthenticated);
	});

	it('closes with 4008 when a client sends more than the limit per window', async () => {
		const client = await connect();
		for (let index = 0; index <= SEND_LIMIT; index++) client.send({ op: GatewayOpcodes.Heartbeat, d: null });
		expect((await client.closed).code).toBe(GatewayCloseCodes.RateLimited);
		expect(client.frames.filter((frame) => frame.op === GatewayOpcodes.HeartbeatAck)).toHaveLength(SEND_LIMIT);
	});

	it('closes a connection that never identifies', async () => {
		const client = await connect();
		expect((await client.closed).code).toBe(GatewayCloseCodes.SessionTimedOut);
	});

	it('closes an API version other than 10 with 4012', async () => {
		const client = await connect('?v=9&encoding=json');
		expect((await client.closed).code).toBe(GatewayCloseCodes.InvalidAPIVersion);
	});

	it.each([
		['transport compression', '/gateway', '?v=10&encoding=json&compress=zlib-stream', 400],
		['ETF encoding', '/gateway', '?v=10&encoding=etf', 400],
		['another path', '/elsewhere', '?v=10', 404],
	])('refuses the upgrade for %s', async (_, path, query, status) => {
		const ws = new WebSocket(`ws://127.0.0.1:${sandbox.port}${path}${query}`);
		ws.on('error', () => {});
		const [request, response] = (await once(ws, 'unexpected-response')) as [{ destroy(): void }, { statusCode: number }];
		request.destroy();
		expect(response.statusCode).toBe(status);
	});

	it('sends READY with everything discord.js reads, then one GUILD_CREATE per guild', async () => {
		const client = await connect('?v=10&encoding=json');
		client.identify();
		const ready = await client.ready();
		expect(ready.s).toBe(1);
		expect(ready.d).toMatchObject({
			v: 10,
			user: { id: boss.id, bot: true },
			guilds: [
				{ id: GUILD_ID, unavailable: true },
				{ id: EMPTY_GUILD_ID, unavailable: true },
			],
			resume_gateway_url: `ws://127.0.0.1:${sandbox.port}/gateway`,
			shard: [0, 1],
			application: { id: boss.id, flags: 0 },
			user_settings: {},
			private_channels: [],
			presences: [],
			relationships: [],
			guild_join_requests: [],
			geo_ordered_rtc_regions: [],
			auth: {},
		});
		expect(ready.d.session_id).toMatch(/^[0-9a-f]{32}$/);
		await waitFor(() => client.dispatches(GatewayDispatchEvents.GuildCreate).length === 2, 'two GUILD_CREATEs');
		expect(client.dispatches(GatewayDispatchEvents.GuildCreate).map((frame) => [frame.s, frame.d.id])).toEqual([
			[2, GUILD_ID],
			[3, EMPTY_GUILD_ID],
		]);
	});

	it('only sends a sharded session the guilds of its shard', async () => {
		const shardOf = (guildId: string) => Number((BigInt(guildId) >> 22n) % 2n);
		const client = await connect();
		client.identify(boss.token, MEMBER_INTENTS, { shard: [shardOf(GUILD_ID), 2] });
		const ready = await client.ready();
		const expected = [GUILD_ID, EMPTY_GUILD_ID].filter((id) => shardOf(id) === shardOf(GUILD_ID));
		expect(ready.d.guilds.map((guild: { id: string }) => guild.id)).toEqual(expected);
		expect(ready.d.shard).toEqual([shardOf(GUILD_ID), 2]);
	});

	it('ignores presence updates after Identify instead of closing', async () => {
		const client = await connect();
		client.identify();
		await client.ready();
		client.send({ op: GatewayOpcodes.PresenceUpdate, d: { since: null, activities: [], status: 'online', afk: false } });
		client.send({ op: GatewayOpcodes.Heartbeat, d: 3 });
		await client.next((frame) => frame.op === GatewayOpcodes.HeartbeatAck, 'an ACK after the presence update');
		expect(client.ws.readyState).toBe(WebSocket.OPEN);
	});

	describe('op 8', () => {
		it('echoes a nonce of up to 32 bytes and drops a longer one', async () => {
			const client = await connect();
			client.identify();
			await client.ready();
			const short = 'n'.repeat(32);
			client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, user_ids: ['300000000000000001'], nonce: short } });
			client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, user_ids: '300000000000000002', nonce: 'é'.repeat(17) } });
			await waitFor(() => client.dispatches(GatewayDispatchEvents.GuildMembersChunk).length === 2, 'two chunks');
			const [first, second] = client.dispatches(GatewayDispatchEvents.GuildMembersChunk);
			expect(first?.d).toMatchObject({ nonce: short, chunk_index: 0, chunk_count: 1, not_found: [] });
			expect(second?.d.nonce).toBeUndefined();
			expect(second?.d.members[0].user.id).toBe('300000000000000002');
		});

		it('answers an empty guild with one empty chunk', async () => {
			const client = await connect();
			client.identify();
			await client.ready();
			client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: EMPTY_GUILD_ID, query: '', limit: 0, nonce: 'empty' } });
			const chunk = await client.next((frame) => frame.t === GatewayDispatchEvents.GuildMembersChunk, 'a chunk');
			expect(chunk.d).toEqual({ guild_id: EMPTY_GUILD_ID, nonce: 'empty', members: [], chunk_index: 0, chunk_count: 1 });
		});

		it('answers a second whole-list request from the same bot with RATE_LIMITED, even from another session', async () => {
			const first = await connect();
			first.identify();
			await first.ready();
			first.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, query: '', limit: 0, nonce: 'first' } });
			const chunk = await first.next((frame) => frame.t === GatewayDispatchEvents.GuildMembersChunk, 'the first chunk');
			expect(chunk.d.members).toHaveLength(12);

			const second = await connect();
			second.identify();
			await second.ready();
			second.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, query: '', limit: 0, nonce: 'second' } });
			const limited = await second.next((frame) => frame.t === GatewayDispatchEvents.RateLimited, 'RATE_LIMITED');
			expect(limited.d).toMatchObject({ opcode: GatewayOpcodes.RequestGuildMembers, meta: { guild_id: GUILD_ID, nonce: 'second' } });
			expect(limited.d.retry_after).toBeGreaterThan(29);
			expect(limited.d.retry_after).toBeLessThanOrEqual(30);
			expect(second.dispatches(GatewayDispatchEvents.GuildMembersChunk)).toHaveLength(0);
		});

		it('is ignored without the GuildMembers intent', async () => {
			const client = await connect();
			client.identify(boss.token, GatewayIntentBits.Guilds);
			await client.ready();
			client.send({ op: GatewayOpcodes.RequestGuildMembers, d: { guild_id: GUILD_ID, user_ids: ['300000000000000001'] } });
			client.send({ op: GatewayOpcodes.Heartbeat, d: null });
			// The sandbox reads a connection's frames in order and answers a request by ids while it
			// reads it, so a chunk would be on the wire before the ACK of the heartbeat sent after.
			await client.next((frame) => frame.op === GatewayOpcodes.HeartbeatAck, 'an ACK');
			expect(client.dispatches(GatewayDispatchEvents.GuildMembersChunk)).toHaveLength(0);
			expect(client.ws.readyState).toBe(WebSocket.OPEN);
		});
	});

	describe('Resume (op 6)', () => {
		function memberUpdate(nick: string): void {
			sandbox.host.emit({
				guildId: GUILD_ID,
				t: GatewayDispatchEvents.GuildMemberUpdate,
				d: { guild_id: GUILD_ID, user: { id: '300000000000000001', username: 'member1' }, roles: [], nick },
				intent: GatewayIntentBits.GuildMembers,
				appId: boss.id,
			});
		}

		async function readySession(): Promise<{ client: RawClient; sessionId: string; seq: number }> {
			const client = await connect();
			client.identify(boss.token, MEMBER_INTENTS);
			const ready = await client.ready();
			await waitFor(() => client.dispatches(GatewayDispatchEvents.GuildCreate).length === 2, 'GUILD_CREATEs');
			return { client, sessionId: ready.d.session_id as string, seq: 3 };
		}

		it('replays what was missed after a resumable close, then sends RESUMED', async () => {
			const { client, sessionId, seq } = await readySession();
			client.ws.close(4200, 'resuming');
			await client.closed;
			memberUpdate('a');
			memberUpdate('b');
			const resumed = await connect();
			resumed.send({ op: GatewayOpcodes.Resume, d: { token: boss.token, session_id: sessionId, seq } });
			await resumed.next((frame) => frame.t === GatewayDispatchEvents.Resumed, 'RESUMED');
			const dispatches = resumed.frames.filter((frame) => frame.op === GatewayOpcodes.Dispatch);
			expect(dispatches.map((frame) => [frame.s, frame.t, frame.d?.nick])).toEqual([
				[4, GatewayDispatchEvents.GuildMemberUpdate, 'a'],
				[5, GatewayDispatchEvents.GuildMemberUpdate, 'b'],
				[6, GatewayDispatchEvents.Resumed, undefined],
			]);
			memberUpdate('c');
			const after = await resumed.next((frame) => frame.d?.nick === 'c', 'a live event after resuming');
			expect(after.s).toBe(7);
		});

		it('answers op 9 false for a session closed by the client with 1000, and still accepts Identify', async () => {
			const { client, sessionId, seq } = await readySession();
			client.ws.close(1000);
			await client.closed;
			const retry = await connect();
			retry.send({ op: GatewayOpcodes.Resume, d: { token: boss.token, session_id: sessionId, seq } });
			const invalid = await retry.next((frame) => frame.op === GatewayOpcodes.InvalidSession, 'op 9');
			expect(invalid).toEqual({ op: GatewayOpcodes.InvalidSession, d: false, s: null, t: null });
			retry.identify();
			expect((await retry.ready()).d.session_id).not.toBe(sessionId);
		});

		it.each([
			['an unknown session', (sessionId: string) => ({ session_id: `${sessionId}x`, seq: 3 })],
			['a seq the session never reached', (sessionId: string) => ({ session_id: sessionId, seq: 99 })],
			['a seq older than the replay buffer holds', (sessionId: string) => ({ session_id: sessionId, seq: 3, overflow: true })],
		])('answers op 9 false for %s', async (_, resume) => {
			const { client, sessionId } = await readySession();
			client.ws.close(4000);
			await client.closed;
			const { overflow, ...d } = resume(sessionId) as { session_id: string; seq: number; overflow?: boolean };
			// The sandbox keeps 8 dispatches per session here.
			if (overflow) for (let index = 0; index < 9; index++) memberUpdate(`overflow ${index}`);
			const retry = await connect();
			retry.send({ op: GatewayOpcodes.Resume, d: { token: boss.token, ...d } });
			expect((await retry.next((frame) => frame.op === GatewayOpcodes.InvalidSession, 'op 9')).d).toBe(false);
			expect(retry.dispatches(GatewayDispatchEvents.Resumed)).toHaveLength(0);
		});

		it('closes a Resume with a bad token with 4004', async () => {
			const { client, sessionId, seq } = await readySession();
			client.ws.close(4000);
			await client.closed;
			const retry = await connect();
			retry.send({ op: GatewayOpcodes.Resume, d: { token: 'nope.token.x', session_id: sessionId, seq } });
			expect((await retry.closed).code).toBe(GatewayCloseCodes.AuthenticationFailed);
		});

		it('lists a session waiting to be resumed as closed', async () => {
			const { client, sessionId } = await readySession();
			client.ws.close(4000);
			await client.closed;
			await waitFor(() => sandbox.gateway.connections().some((c) => c.sessionId === sessionId && c.state === 'closed'), 'the session to be listed as closed');
		});
	});
});
