import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
	ChannelType,
	GatewayIntentBits,
	type APIGuildMember,
	type GuildMemberFlags,
	type APIUser,
	type GatewayGuildCreateDispatchData,
} from 'discord-api-types/v10';
import { createGatewayServer, type GatewayServerOptions } from '../src/gateway/createGatewayServer.js';
import type { GatewayApp, GatewayHost, GatewayServer, GatewayTiming, SandboxDispatch } from '../src/gateway/GatewayHost.js';
import { waitUntil } from './support/waitUntil.js';

/**
 * A small stand-in for the sandbox's state, for testing the gateway alone: a few apps, a few
 * guilds whose members are generated on demand, and an HTTP server that answers
 * `GET /api/v10/gateway/bot` and routes `/gateway` upgrades, which is all discord.js needs to log in.
 */

export interface FakeApp {
	id: string;
	token: string;
	username: string;
	/** Privileged intents switched on for it (non-privileged ones are always allowed). */
	privileged: number;
}

export interface FakeGuild {
	id: string;
	name: string;
	/** Members besides the bots, generated with ids above {@link FIRST_MEMBER_ID}. */
	humans: number;
	/** Which apps' bots are in it. */
	appIds: string[];
	/** Make `memberChunks` yield nothing, as a guild with no members at all would. */
	noMembers?: boolean;
}

const NO_FLAGS = 0 as GuildMemberFlags;

export const FIRST_MEMBER_ID = 300_000_000_000_000_000n;
export const ALL_UNPRIVILEGED =
	Object.values(GatewayIntentBits)
		.filter((bit): bit is number => typeof bit === 'number')
		.reduce((all, bit) => all | bit, 0) & ~(GatewayIntentBits.GuildMembers | GatewayIntentBits.GuildPresences | GatewayIntentBits.MessageContent);

export interface FakeSandbox {
	host: GatewayHost & { emit(event: SandboxDispatch): void; logs: Array<{ obj: Record<string, unknown>; msg: string }> };
	gateway: GatewayServer;
	port: number;
	apiUrl: string;
	gatewayUrl: string;
	close(): Promise<void>;
}

export function memberId(index: number): string {
	return String(FIRST_MEMBER_ID + BigInt(index));
}

function botUser(app: FakeApp): APIUser {
	return { id: app.id, username: app.username, discriminator: '0', global_name: null, avatar: null, bot: true };
}

function humanMember(index: number): APIGuildMember {
	return {
		user: { id: memberId(index), username: `member${index}`, discriminator: '0', global_name: null, avatar: null },
		nick: null,
		roles: [],
		joined_at: '2024-01-01T00:00:00.000Z',
		deaf: false,
		mute: false,
		flags: NO_FLAGS,
	};
}

function botMember(app: FakeApp, roleId: string): APIGuildMember {
	return { user: botUser(app), nick: null, roles: [roleId], joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: NO_FLAGS };
}

export async function startFakeSandbox(options: {
	apps: FakeApp[];
	guilds: FakeGuild[];
	timing?: Partial<GatewayTiming>;
	server?: GatewayServerOptions;
	/** Tokens `/gateway/bot` accepts although the gateway does not know them (to reach close 4004). */
	restOnlyTokens?: string[];
}): Promise<FakeSandbox> {
	const apps = new Map(options.apps.map((app) => [app.token, app]));
	const appsById = new Map(options.apps.map((app) => [app.id, app]));
	const guilds = new Map(options.guilds.map((guild) => [guild.id, guild]));
	const listeners = new Set<(event: SandboxDispatch) => void>();
	const logs: Array<{ obj: Record<string, unknown>; msg: string }> = [];

	const roleId = (guild: FakeGuild): string => String(BigInt(guild.id) + 1n);
	const channelId = (guild: FakeGuild): string => String(BigInt(guild.id) + 2n);
	const botsIn = (guild: FakeGuild): FakeApp[] => guild.appIds.map((id) => appsById.get(id)!).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
	function* allMembers(guild: FakeGuild): Generator<APIGuildMember> {
		if (guild.noMembers) return;
		for (const app of botsIn(guild)) yield botMember(app, roleId(guild));
		for (let index = 0; index < guild.humans; index++) yield humanMember(index);
	}
	const guildOf = (guildId: string): FakeGuild => {
		const guild = guilds.get(guildId);
		if (!guild) throw new Error(`no guild ${guildId}`);
		return guild;
	};

	const host: FakeSandbox['host'] = {
		logs,
		appByToken(token) {
			const app = apps.get(token);
			if (!app) return undefined;
			const gatewayApp: GatewayApp = { id: app.id, allowedIntents: () => ALL_UNPRIVILEGED | app.privileged };
			return gatewayApp;
		},
		readyData(appId) {
			const app = appsById.get(appId)!;
			return {
				user: botUser(app),
				application: { id: app.id, flags: 0 },
				guildIds: [...guilds.values()].filter((guild) => guild.appIds.includes(appId)).map((guild) => guild.id),
			};
		},
		guildCreate(appId, guildId) {
			const guild = guildOf(guildId);
			const app = appsById.get(appId)!;
			const everyone = {
				id: guild.id,
				name: '@everyone',
				color: 0,
				hoist: false,
				icon: null,
				unicode_emoji: null,
				position: 0,
				permissions: '1071698660929',
				managed: false,
				mentionable: false,
				flags: 0,
			};
			const botRole = { ...everyone, id: roleId(guild), name: 'Bots', position: 1, permissions: '134217728' };
			const data = {
				id: guild.id,
				name: guild.name,
				icon: null,
				splash: null,
				discovery_splash: null,
				owner_id: memberId(0),
				afk_channel_id: null,
				afk_timeout: 300,
				verification_level: 0,
				default_message_notifications: 0,
				explicit_content_filter: 0,
				roles: [everyone, botRole],
				emojis: [],
				features: [],
				mfa_level: 0,
				application_id: null,
				system_channel_id: null,
				system_channel_flags: 0,
				rules_channel_id: null,
				vanity_url_code: null,
				description: null,
				banner: null,
				premium_tier: 0,
				preferred_locale: 'en-US',
				public_updates_channel_id: null,
				nsfw_level: 0,
				stickers: [],
				premium_progress_bar_enabled: false,
				safety_alerts_channel_id: null,
				joined_at: '2024-01-01T00:00:00.000Z',
				large: guild.humans + guild.appIds.length > 50,
				unavailable: false,
				member_count: guild.humans + guild.appIds.length,
				voice_states: [],
				members: [botMember(app, roleId(guild))],
				channels: [
					{
						id: channelId(guild),
						type: ChannelType.GuildText,
						name: 'general',
						position: 0,
						permission_overwrites: [],
						parent_id: null,
						nsfw: false,
						topic: null,
						last_message_id: null,
						rate_limit_per_user: 0,
						guild_id: guild.id,
					},
				],
				threads: [],
				presences: [],
				stage_instances: [],
				guild_scheduled_events: [],
				soundboard_sounds: [],
			};
			return data as unknown as GatewayGuildCreateDispatchData;
		},
		*memberChunks(guildId, chunkSize) {
			let chunk: APIGuildMember[] = [];
			for (const member of allMembers(guildOf(guildId))) {
				chunk.push(member);
				if (chunk.length === chunkSize) {
					yield chunk;
					chunk = [];
				}
			}
			if (chunk.length > 0) yield chunk;
		},
		membersByIds(guildId, ids) {
			const guild = guildOf(guildId);
			const members: APIGuildMember[] = [];
			const notFound: string[] = [];
			for (const id of ids) {
				const bot = botsIn(guild).find((app) => app.id === id);
				const index = BigInt(id) - FIRST_MEMBER_ID;
				if (bot) members.push(botMember(bot, roleId(guild)));
				else if (index >= 0n && index < BigInt(guild.humans)) members.push(humanMember(Number(index)));
				else notFound.push(id);
			}
			return { members, notFound };
		},
		membersByQuery(guildId, query, limit) {
			const found: APIGuildMember[] = [];
			for (const member of allMembers(guildOf(guildId))) {
				if (found.length >= limit) break;
				if (member.user.username.toLowerCase().startsWith(query.toLowerCase())) found.push(member);
			}
			return found;
		},
		subscribe(listener) {
			listeners.add(listener);
			return () => listeners.delete(listener);
		},
		emit(event) {
			for (const listener of listeners) listener(event);
		},
		timing: {
			heartbeatIntervalMs: 41_250,
			sendLimit: 120,
			sendWindowMs: 60_000,
			memberRequestWindowMs: 30_000,
			resumeWindowMs: 60_000,
			chunkDelayMs: 0,
			...options.timing,
		},
		log: (obj, msg) => logs.push({ obj, msg }),
	};

	const gateway = createGatewayServer(host, options.server);
	const restOnly = new Set(options.restOnlyTokens ?? []);
	const server: Server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://sandbox');
		const token = (request.headers.authorization ?? '').replace(/^Bot /, '');
		if (request.method === 'GET' && url.pathname === '/api/v10/gateway/bot') {
			if (!apps.has(token) && !restOnly.has(token)) {
				response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ message: '401: Unauthorized', code: 0 }));
				return;
			}
			const { port } = server.address() as AddressInfo;
			response.writeHead(200, { 'content-type': 'application/json' }).end(
				JSON.stringify({
					url: `ws://127.0.0.1:${port}/gateway`,
					shards: 1,
					session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
				}),
			);
			return;
		}
		response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: '404: Not Found', code: 0 }));
	});
	server.on('upgrade', (request, socket, head) => gateway.handleUpgrade(request, socket, head));
	server.listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as AddressInfo;

	return {
		host,
		gateway,
		port,
		apiUrl: `http://127.0.0.1:${port}/api`,
		gatewayUrl: `ws://127.0.0.1:${port}/gateway?v=10&encoding=json`,
		async close() {
			await gateway.close();
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Resolves when `predicate` holds, polling; rejects after `timeoutMs` with `what` in the message. */
export function waitFor(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
	return waitUntil(predicate, { what, timeoutMs, everyMs: 10 });
}
