import {
	AuditLogEvent,
	PermissionFlagsBits,
	RESTJSONErrorCodes,
	type APIAuditLog,
	type APIAuditLogEntry,
	type RESTGetAPIGuildRoleMemberCountsResult,
} from 'discord-api-types/v10';
import type { SandboxState } from '../state/SandboxState.js';
import { auditLogChanges } from './auditLogChanges.js';
import { DiscordHttpError } from './errors.js';
import { integerQuery, requireGuild, snowflakeQuery } from './queryParams.js';
import type { Route } from './Route.js';

/** The guild, its roles and channels, and its audit log. */
export const guildRoutes: Route[] = [
	{
		method: 'GET',
		path: '/guilds/:guild',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, params, query }) {
			requireGuild(state, params.guild);
			return { status: 200, body: state.guildJson(query.get('with_counts') === 'true') };
		},
	},
	{
		method: 'GET',
		path: '/guilds/:guild/roles',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			return { status: 200, body: state.guild.roles };
		},
	},
	{
		// Counts without listing: no members intent needed. Every role but `@everyone`, 0 included.
		// https://discord.com/developers/docs/resources/guild#get-guild-role-member-counts
		method: 'GET',
		path: '/guilds/:guild/roles/member-counts',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			const counts = state.members.countByRole();
			const body: RESTGetAPIGuildRoleMemberCountsResult = {};
			for (const role of state.guild.roles) if (role.id !== state.guildId) body[role.id] = counts.get(role.id) ?? 0;
			return { status: 200, body };
		},
	},
	{
		method: 'GET',
		path: '/guilds/:guild/channels',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, params }) {
			requireGuild(state, params.guild);
			return { status: 200, body: [state.channelJson()] };
		},
	},
	{
		method: 'GET',
		path: '/guilds/:guild/audit-logs',
		bucket: 'default',
		auth: 'bot',
		major: 'guild',
		handle({ ctx: { state }, app, params, query }) {
			requireGuild(state, params.guild);
			if ((state.permissions(app!.memberIndex) & PermissionFlagsBits.ViewAuditLog) === 0n) throw DiscordHttpError.of(RESTJSONErrorCodes.MissingPermissions);
			return { status: 200, body: auditLogJson(state, query) };
		},
	},
];

/**
 * The audit log as `GET /guilds/{id}/audit-logs` returns it, filtered by `user_id`,
 * `action_type`, `before`, `after` and `limit` (1–100, default 50): nickname changes and timeouts
 * (MEMBER_UPDATE), roles given or taken (MEMBER_ROLE_UPDATE), roles deleted (ROLE_DELETE), kicks
 * (MEMBER_KICK), bans and unbans (MEMBER_BAN_ADD, MEMBER_BAN_REMOVE).
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log#get-guild-audit-log}
 */
export function auditLogJson(state: SandboxState, query: URLSearchParams): APIAuditLog {
	const limit = integerQuery(query, 'limit', { min: 1, max: 100, fallback: 50 });
	const before = snowflakeQuery(query, 'before');
	const after = snowflakeQuery(query, 'after');
	const userId = snowflakeQuery(query, 'user_id');
	const actionType = query.has('action_type') ? integerQuery(query, 'action_type', { min: 0, max: 1000, fallback: 0 }) : undefined;
	let actorIndex: number | undefined;
	if (userId !== undefined) {
		actorIndex = state.members.lowerBound(userId);
		if (actorIndex >= state.members.length || state.members.idAt(actorIndex) !== userId) return auditLogBody([], []);
	}
	const records = state.auditLog.query({ limit, before, after, actorIndex, actionType });
	const userIndices = new Set<number>();
	const entries = records.map((record): APIAuditLogEntry => {
		userIndices.add(record.actorIndex);
		if (record.actionType !== AuditLogEvent.RoleDelete) userIndices.add(record.targetIndex);
		const changes = auditLogChanges(record);
		return {
			id: record.id.toString(),
			user_id: state.members.idAt(record.actorIndex).toString(),
			target_id: record.actionType === AuditLogEvent.RoleDelete ? record.role.id : state.members.idAt(record.targetIndex).toString(),
			action_type: record.actionType,
			...(changes === undefined ? {} : { changes }),
			...(record.reason === null ? {} : { reason: record.reason }),
		};
	});
	return auditLogBody(
		entries,
		[...userIndices].map((index) => state.userJson(index)),
	);
}

function auditLogBody(entries: APIAuditLogEntry[], users: APIAuditLog['users']): APIAuditLog {
	return {
		audit_log_entries: entries,
		users,
		integrations: [],
		webhooks: [],
		guild_scheduled_events: [],
		threads: [],
		application_commands: [],
		auto_moderation_rules: [],
	};
}
