import { auditLogJson } from '../rest/guilds.js';
import { ControlError } from './ControlError.js';
import type { ControlRoute } from './ControlRoute.js';

/** Looking at what the bots did: messages, requests, counters, the audit log, a summary. */
export const observeRoutes: ControlRoute[] = [
	{
		method: 'GET',
		path: '/channels/:channel/messages',
		handle({ ctx: { state }, params }) {
			if (params.channel !== state.guild.channel.id)
				throw new ControlError(404, `unknown channel ${params.channel}; the sandbox's channel is ${state.guild.channel.id}`);
			return state.messages.all(params.channel).map((stored) => ({
				...stored.message,
				edits: stored.edits,
				ephemeral: stored.ephemeral,
				deleted: stored.deleted,
				interactionId: stored.interactionId,
				everMentioned: stored.everMentioned.toJSON(),
			}));
		},
	},
	{
		method: 'GET',
		path: '/requests',
		handle({ ctx, query }) {
			const after = Number(query.get('after') ?? 0);
			const limit = Number(query.get('limit') ?? 10_000);
			if (!Number.isInteger(after) || after < 0) throw new ControlError(400, 'after must be a sequence number (0 or more)');
			if (!Number.isInteger(limit) || limit < 1 || limit > 100_000) throw new ControlError(400, 'limit must be an integer from 1 to 100000');
			return { requests: ctx.requests.list(after, limit), lastSeq: ctx.requests.lastSeq };
		},
	},
	{
		method: 'GET',
		path: '/stats',
		handle({ ctx }) {
			const invalid = ctx.invalidRequests.summary();
			return {
				apps: ctx.state.apps.map((app) => ({ botUserId: app.id, name: app.name, role: app.role, ...ctx.stats.get(app.id) })),
				unauthenticated: ctx.stats.get(null),
				totals: ctx.stats.totals(),
				invalidRequests: {
					total: invalid.reduce((sum, address) => sum + address.total, 0),
					inWindow: invalid.reduce((sum, address) => sum + address.inWindow, 0),
					byAddress: invalid,
				},
			};
		},
	},
	{
		method: 'GET',
		path: '/audit-log',
		handle({ ctx: { state }, query }) {
			const guildId = query.get('guildId') ?? state.guildId;
			if (guildId !== state.guildId) throw new ControlError(404, `unknown guild ${guildId}`);
			return auditLogJson(state, query);
		},
	},
	{
		method: 'GET',
		path: '/state',
		handle({ ctx }) {
			const { state, options } = ctx;
			return {
				guildId: state.guildId,
				name: state.guild.name,
				ownerId: state.guild.ownerId,
				channelId: state.guild.channel.id,
				members: state.members.size,
				nicknamed: state.members.countNicknamed(),
				roles: state.guild.roles.map(({ id, name, position, permissions, managed, mentionable }) => ({
					id,
					name,
					position,
					permissions,
					managed,
					mentionable,
				})),
				apps: state.apps.map((app) => ({
					id: app.id,
					name: app.name,
					role: app.role,
					membersIntent: app.membersIntent,
					revoked: app.revoked,
					commands: state.commands.list(app.id, state.guildId).map((command) => command.name),
				})),
				auditLogEntries: state.auditLog.size,
				timeScale: options.timeScale,
				gateway: ctx.gateway?.connections() ?? [],
			};
		},
	},
];
