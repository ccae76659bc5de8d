import { AuditLogEvent, type APIAuditLogChange } from 'discord-api-types/v10';
import type { AuditLogRecord } from '../state/AuditLog.js';

/**
 * An entry's `changes`, as Discord writes them: a nickname change as `nick` (no `new_value` when
 * cleared, no `old_value` when first set), a timeout as `communication_disabled_until` the same
 * way; a role given or taken as `$add` or `$remove` with the role's id and name, Discord's
 * exception to its one-field-per-key rule; a deleted role as what it was, one `old_value` per
 * field. Kicks, bans and unbans change no field: Discord sends them without `changes`
 * (undefined here).
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log#audit-log-change-object-audit-log-change-exceptions}
 */
export function auditLogChanges(record: AuditLogRecord): APIAuditLogChange[] | undefined {
	switch (record.actionType) {
		case AuditLogEvent.MemberRoleUpdate:
			return [{ key: record.change, new_value: [{ ...record.role }] }];
		case AuditLogEvent.RoleDelete: {
			const { role } = record;
			return [
				{ key: 'name', old_value: role.name },
				{ key: 'permissions', old_value: role.permissions },
				{ key: 'color', old_value: role.color },
				{ key: 'hoist', old_value: role.hoist },
				{ key: 'mentionable', old_value: role.mentionable },
			];
		}
		case AuditLogEvent.MemberUpdate:
			if ('key' in record) return [{ key: record.key, ...valueChange(record.oldUntil, record.newUntil) }];
			return [{ key: 'nick', ...valueChange(record.oldNick, record.newNick) }];
		default:
			return undefined;
	}
}

/** `old_value` and `new_value`, each left out when there was (or is) nothing. */
function valueChange(old: string | null, next: string | null): { old_value?: string; new_value?: string } {
	return { ...(old === null ? {} : { old_value: old }), ...(next === null ? {} : { new_value: next }) };
}
