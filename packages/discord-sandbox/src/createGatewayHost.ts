import { GatewayIntentBits, type APIGuildMember, type GatewayGuildCreateDispatchData } from 'discord-api-types/v10';
import type { GatewayApp, GatewayHost } from './gateway/GatewayHost.js';
import type { SandboxContext } from './SandboxContext.js';
import { applicationFlags } from './state/applicationFlags.js';
import type { SandboxApp } from './state/SandboxApp.js';

/** Every intent bit Discord defines. */
const ALL_INTENTS = Object.values(GatewayIntentBits)
	.filter((bit): bit is number => typeof bit === 'number')
	.reduce((all, bit) => all | bit, 0);

/** The sandbox's answer for an app: privileged intents only as switched on (presences never). */
function allowedIntents(app: SandboxApp): number {
	let intents = ALL_INTENTS & ~GatewayIntentBits.GuildPresences;
	if (!app.membersIntent) intents &= ~GatewayIntentBits.GuildMembers;
	return intents;
}

/** Discord's rule for the gateway's per-connection send limit: 120 per 60 s. */
const SEND_LIMIT = 120;
const SEND_WINDOW_MS = 60_000;
/** One all-members op 8 per guild per bot per 30 s (changelog, 2025-08-14). */
const MEMBER_REQUEST_WINDOW_MS = 30_000;

/**
 * The gateway's view of the sandbox (see {@link GatewayHost}): apps by token, READY and
 * GUILD_CREATE payloads, members for op 8, and the event stream.
 */
export function createGatewayHost(ctx: SandboxContext): GatewayHost {
	const { state, options } = ctx;
	const log = ctx.log.child({ component: 'gateway' });
	const memberJsons = (indices: Iterable<number>): APIGuildMember[] => Array.from(indices, (index) => state.memberJson(index));

	return {
		appByToken(token): GatewayApp | undefined {
			const app = state.appByToken(token);
			return app && { id: app.id, allowedIntents: () => allowedIntents(app) };
		},
		readyData(appId) {
			const app = state.appById(appId)!;
			// A bot removed from the guild is told of no guild, as on Discord.
			const guildIds = state.inGuild(app) ? [state.guildId] : [];
			return { user: state.userJson(app.memberIndex), application: { id: app.id, flags: applicationFlags(app) }, guildIds };
		},
		guildCreate(appId, guildId): GatewayGuildCreateDispatchData {
			const app = state.appById(appId)!;
			if (guildId !== state.guildId) throw new RangeError(`unknown guild ${guildId}`);
			const me = state.memberJson(app.memberIndex);
			return {
				...state.guildJson(false),
				joined_at: me.joined_at ?? new Date(0).toISOString(),
				large: state.members.size > 50,
				unavailable: false,
				member_count: state.members.size,
				voice_states: [],
				members: [me],
				channels: [state.channelJson()],
				threads: [],
				presences: [],
				stage_instances: [],
				guild_scheduled_events: [],
				soundboard_sounds: [],
			};
		},
		*memberChunks(guildId, chunkSize) {
			if (guildId !== state.guildId) return;
			let chunk: number[] = [];
			for (const index of state.members.indices()) {
				chunk.push(index);
				if (chunk.length === chunkSize) {
					yield memberJsons(chunk);
					chunk = [];
				}
			}
			if (chunk.length > 0) yield memberJsons(chunk);
		},
		membersByIds(guildId, ids) {
			const members: APIGuildMember[] = [];
			const notFound: string[] = [];
			for (const id of ids) {
				const index = state.memberIndex(guildId, id);
				if (index === -1) notFound.push(id);
				else members.push(state.memberJson(index));
			}
			return { members, notFound };
		},
		membersByQuery(guildId, query, limit) {
			const found: number[] = [];
			if (guildId !== state.guildId) return [];
			const prefix = query.toLowerCase();
			for (const index of state.members.indices()) {
				if (found.length >= limit) break;
				if (state.members.username(index).toLowerCase().startsWith(prefix)) found.push(index);
			}
			return memberJsons(found);
		},
		subscribe: (listener) => state.events.subscribe(listener),
		timing: {
			heartbeatIntervalMs: options.heartbeatIntervalMs,
			sendLimit: SEND_LIMIT,
			sendWindowMs: SEND_WINDOW_MS / options.timeScale,
			memberRequestWindowMs: MEMBER_REQUEST_WINDOW_MS / options.timeScale,
			resumeWindowMs: options.resumeWindowMs,
			chunkDelayMs: options.chunkDelayMs,
		},
		log: (obj, msg) => log.info(obj, msg),
	};
}
