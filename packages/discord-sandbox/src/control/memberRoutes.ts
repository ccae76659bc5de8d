import type { MemberDecoration } from '../state/MemberStore.js';
import type { SandboxState } from '../state/SandboxState.js';
import { toDiscordTimestamp } from '../state/toDiscordTimestamp.js';
import { transferOwnership } from '../state/transferOwnership.js';
import { ControlError } from './ControlError.js';
import { STREAMED, type ControlRoute } from './ControlRoute.js';

/** A member as the control API shows it. */
export interface ControlMember {
	id: string;
	username: string;
	globalName: string | null;
	nick: string | null;
	roles: readonly string[];
	bot: boolean;
	/** When they joined, as Discord's `joined_at` says it (ISO 8601). */
	joinedAt: string;
	/**
	 * Only for a member generated with a decorated name (the `decoratedNames` option): its style,
	 * which name carried it, the decorated name, and the readable name it was drawn over (`null`
	 * when nothing readable was in it). What the member was generated with, whatever it shows now.
	 */
	decoration?: MemberDecoration;
	/**
	 * Only for a member timed out at some time: their `communication_disabled_until` as Discord
	 * writes it (it may be past: Discord keeps an ended timeout's time).
	 */
	communicationDisabledUntil?: string;
}

export function controlMember(state: SandboxState, index: number): ControlMember {
	const decoration = state.members.decoration(index);
	const until = state.timeouts.get(index);
	return {
		id: state.members.idAt(index).toString(),
		username: state.members.username(index),
		globalName: state.members.globalName(index),
		nick: state.members.nick(index),
		roles: state.members.roles(index),
		bot: state.members.isBot(index),
		joinedAt: state.members.joinedAt(index),
		...(decoration === null ? {} : { decoration }),
		...(until === undefined ? {} : { communicationDisabledUntil: toDiscordTimestamp(until) }),
	};
}

export function requireGuild(state: SandboxState, guildId: string | undefined): void {
	if (guildId !== state.guildId) throw new ControlError(404, `unknown guild ${String(guildId)}; the sandbox's guild is ${state.guildId}`);
}

export function requireMember(state: SandboxState, guildId: string, userId: string): number {
	const index = state.memberIndex(guildId, userId);
	if (index === -1) throw new ControlError(404, `user ${userId} is not a member of guild ${guildId}`);
	return index;
}

/** Seeing and changing the guild's members from outside, as its human members would. */
export const memberRoutes: ControlRoute[] = [
	{
		method: 'GET',
		path: '/guilds/:guild/members',
		async handle({ ctx: { state }, params, query, response }) {
			requireGuild(state, params.guild);
			const limitParam = query.get('limit');
			const limit = limitParam === null ? Number.POSITIVE_INFINITY : Number(limitParam);
			if (!(limit >= 1)) throw new ControlError(400, `limit must be a positive integer, got ${limitParam}`);
			const afterParam = query.get('after');
			if (afterParam !== null && !/^\d{1,20}$/.test(afterParam)) throw new ControlError(400, `after must be a member id, got ${afterParam}`);
			const after = BigInt(afterParam ?? 0);
			// Streamed in pieces: ten million members are about a gigabyte of JSON.
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.write('[');
			let written = 0;
			let index = state.members.lowerBound(after + 1n);
			while (index < state.members.length && written < limit) {
				const piece: string[] = [];
				for (; index < state.members.length && written < limit && piece.length < 1000; index++) {
					if (state.members.isRemoved(index)) continue;
					piece.push(JSON.stringify(controlMember(state, index)));
					written++;
				}
				if (piece.length === 0) continue;
				const more = response.write(`${written > piece.length ? ',' : ''}${piece.join(',')}`);
				if (!more) await new Promise((resolve) => response.once('drain', resolve));
			}
			response.end(']');
			return STREAMED;
		},
	},
	{
		method: 'POST',
		path: '/guilds/:guild/members',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			const count = body.count ?? 1;
			if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100_000)
				throw new ControlError(400, 'count must be an integer from 1 to 100000');
			return { ids: state.addMembers(count) };
		},
	},
	{
		method: 'DELETE',
		path: '/guilds/:guild/members/:user',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			const index = requireMember(state, params.guild!, params.user!);
			// One of our bots is kicked: its app stays valid but is no longer in the guild.
			const app = state.apps.find((candidate) => candidate.memberIndex === index);
			if (app) state.removeApp(app);
			else state.removeMember(index);
			return { removed: params.user };
		},
	},
	{
		method: 'PATCH',
		path: '/guilds/:guild/members/:user',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			const index = requireMember(state, params.guild!, params.user!);
			if (!('nick' in body)) throw new ControlError(400, 'body must have "nick" (a string, or null to clear)');
			const { nick } = body;
			if (nick !== null && typeof nick !== 'string') throw new ControlError(400, 'nick must be a string or null');
			const trimmed = nick?.trim() ?? null;
			if (trimmed !== null && [...trimmed].length > 32) throw new ControlError(400, 'nick must be 32 or fewer characters');
			// The member renames themselves: the audit log names them, not a bot.
			state.setNick(index, trimmed, { actorIndex: index, reason: null });
			return controlMember(state, index);
		},
	},
	{
		// The owner gives the server away (Server Settings → Members → Transfer Ownership): only
		// to a member who is not a bot, and not to themself.
		method: 'PUT',
		path: '/guilds/:guild/owner',
		handle({ ctx: { state }, params, body }) {
			requireGuild(state, params.guild);
			if (typeof body.userId !== 'string') throw new ControlError(400, 'body must have "userId", the new owner');
			const index = requireMember(state, params.guild!, body.userId);
			if (state.members.isBot(index)) throw new ControlError(400, 'a bot cannot be given the server');
			if (body.userId === state.guild.ownerId) throw new ControlError(400, `${body.userId} owns the server already`);
			transferOwnership(state, index);
			return { ownerId: state.guild.ownerId };
		},
	},
];
