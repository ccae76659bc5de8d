import { AuditLogEvent, type APIRole } from 'discord-api-types/v10';

/** A role as a MEMBER_ROLE_UPDATE entry names it: its id and its name at the time. */
export interface AuditLogRole {
	id: string;
	name: string;
}

interface AuditLogRecordBase {
	id: bigint;
	actorIndex: number;
	reason: string | null;
}

/** An entry whose target is a member. */
interface MemberRecordBase extends AuditLogRecordBase {
	targetIndex: number;
}

/** A nickname change (MEMBER_UPDATE, action type 24). */
export interface NickRecord extends MemberRecordBase {
	actionType: AuditLogEvent.MemberUpdate;
	oldNick: string | null;
	newNick: string | null;
}

/** A role given (`$add`) or taken (`$remove`) (MEMBER_ROLE_UPDATE, action type 25). */
export interface RoleRecord extends MemberRecordBase {
	actionType: AuditLogEvent.MemberRoleUpdate;
	change: '$add' | '$remove';
	role: AuditLogRole;
}

/** A role deleted (ROLE_DELETE, action type 32): its target is the role, as it was. */
export interface RoleDeleteRecord extends AuditLogRecordBase {
	actionType: AuditLogEvent.RoleDelete;
	role: APIRole;
}

/** A timeout set, changed or lifted (MEMBER_UPDATE, 24, on `communication_disabled_until`). */
export interface TimeoutRecord extends MemberRecordBase {
	actionType: AuditLogEvent.MemberUpdate;
	key: 'communication_disabled_until';
	/** ISO 8601 timestamps, null when there was (or is) no timeout. */
	oldUntil: string | null;
	newUntil: string | null;
}

/** A kick (MEMBER_KICK, 20), a ban (MEMBER_BAN_ADD, 22) or an unban (MEMBER_BAN_REMOVE, 23): no changes, a target. */
export interface ModerationRecord extends MemberRecordBase {
	actionType: AuditLogEvent.MemberKick | AuditLogEvent.MemberBanAdd | AuditLogEvent.MemberBanRemove;
}

/** One entry as stored: member indices instead of ids, the reason interned. */
export type AuditLogRecord = NickRecord | TimeoutRecord | RoleRecord | RoleDeleteRecord | ModerationRecord;

/** What the `kind` column holds. */
const NICK = 0;
const ROLE_ADD = 1;
const ROLE_REMOVE = 2;
const ROLE_DELETE = 3;
const TIMEOUT = 4;
const KICK = 5;
const BAN_ADD = 6;
const BAN_REMOVE = 7;

/** The kinds that are a bare action on a member, by action type. */
const MODERATION_KINDS = new Map<number, number>([
	[AuditLogEvent.MemberKick, KICK],
	[AuditLogEvent.MemberBanAdd, BAN_ADD],
	[AuditLogEvent.MemberBanRemove, BAN_REMOVE],
]);

/** Which kinds each filterable action type covers. */
const KINDS_OF: ReadonlyMap<number, readonly number[]> = new Map([
	[AuditLogEvent.MemberUpdate, [NICK, TIMEOUT]],
	[AuditLogEvent.MemberRoleUpdate, [ROLE_ADD, ROLE_REMOVE]],
	[AuditLogEvent.RoleDelete, [ROLE_DELETE]],
	...[...MODERATION_KINDS].map(([type, kind]): [number, number[]] => [type, [kind]]),
]);

/**
 * The guild's audit log: the changes the sandbox makes to members, nickname changes and timeouts
 * (MEMBER_UPDATE, 24), roles given or taken (MEMBER_ROLE_UPDATE, 25), kicks (MEMBER_KICK, 20),
 * bans and unbans (MEMBER_BAN_ADD, 22, MEMBER_BAN_REMOVE, 23), and roles deleted (ROLE_DELETE,
 * 32; rare, so kept whole on the side, with no member target). A mass job writes one
 * entry per member, so the entries are kept in columns, with reasons and roles interned (one
 * job uses one reason and one role); a role entry keeps no nickname, a nickname entry no role.
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log}
 */
export class AuditLog {
	#ids = new BigUint64Array(1024);
	#actors = new Int32Array(1024);
	#targets = new Int32Array(1024);
	#reasons = new Int32Array(1024);
	#kinds = new Uint8Array(1024);
	/**
	 * Per entry: an index into `#nickChanges` for a nickname (and its old and new timeouts for a
	 * timeout), `#roleTable` for a role, `#deletedRoles` for a deletion; nothing for a kick or ban.
	 */
	#details = new Int32Array(1024);
	readonly #nickChanges: (string | null)[] = [];
	readonly #reasonTable: (string | null)[] = [null];
	readonly #reasonIndex = new Map<string | null, number>([[null, 0]]);
	readonly #roleTable: AuditLogRole[] = [];
	readonly #roleIndex = new Map<string, number>();
	readonly #deletedRoles: APIRole[] = [];
	#count = 0;

	public get size(): number {
		return this.#count;
	}

	public add(record: AuditLogRecord): void {
		if (this.#count === this.#ids.length) this.#grow();
		const index = this.#count++;
		this.#ids[index] = record.id;
		this.#actors[index] = record.actorIndex;
		this.#targets[index] = record.actionType === AuditLogEvent.RoleDelete ? -1 : record.targetIndex;
		let reason = this.#reasonIndex.get(record.reason);
		if (reason === undefined) {
			reason = this.#reasonTable.push(record.reason) - 1;
			this.#reasonIndex.set(record.reason, reason);
		}
		this.#reasons[index] = reason;
		const moderation = MODERATION_KINDS.get(record.actionType);
		if (moderation !== undefined) {
			this.#kinds[index] = moderation;
			this.#details[index] = -1;
		} else if (record.actionType === AuditLogEvent.MemberUpdate) {
			const timeout = 'key' in record;
			this.#kinds[index] = timeout ? TIMEOUT : NICK;
			this.#details[index] = timeout
				? this.#nickChanges.push(record.oldUntil, record.newUntil) - 2
				: this.#nickChanges.push(record.oldNick, record.newNick) - 2;
		} else if (record.actionType === AuditLogEvent.RoleDelete) {
			this.#kinds[index] = ROLE_DELETE;
			this.#details[index] = this.#deletedRoles.push(structuredClone(record.role)) - 1;
		} else if (record.actionType === AuditLogEvent.MemberRoleUpdate) {
			this.#kinds[index] = record.change === '$add' ? ROLE_ADD : ROLE_REMOVE;
			const key = `${record.role.id}\u0000${record.role.name}`;
			let role = this.#roleIndex.get(key);
			if (role === undefined) {
				role = this.#roleTable.push({ id: record.role.id, name: record.role.name }) - 1;
				this.#roleIndex.set(key, role);
			}
			this.#details[index] = role;
		}
	}

	/**
	 * Entries newest first, as Discord returns them: only ids below `before` and above `after`,
	 * only those made by `actorIndex` and of `actionType` when given, at most `limit`.
	 */
	public query(options: { limit: number; before?: bigint; after?: bigint; actorIndex?: number; actionType?: number }): AuditLogRecord[] {
		const result: AuditLogRecord[] = [];
		const kinds = options.actionType === undefined ? null : (KINDS_OF.get(options.actionType) ?? []);
		if (kinds?.length === 0) return result;
		for (let index = this.#count - 1; index >= 0 && result.length < options.limit; index--) {
			const id = this.#ids[index]!;
			if (options.before !== undefined && id >= options.before) continue;
			if (options.after !== undefined && id <= options.after) break;
			if (options.actorIndex !== undefined && this.#actors[index] !== options.actorIndex) continue;
			const kind = this.#kinds[index]!;
			if (kinds && !kinds.includes(kind)) continue;
			result.push(this.#record(index, kind));
		}
		return result;
	}

	#record(index: number, kind: number): AuditLogRecord {
		const base = { id: this.#ids[index]!, actorIndex: this.#actors[index]!, reason: this.#reasonTable[this.#reasons[index]!] ?? null };
		const detail = this.#details[index]!;
		if (kind === ROLE_DELETE) return { ...base, actionType: AuditLogEvent.RoleDelete, role: structuredClone(this.#deletedRoles[detail]!) };
		const member = { ...base, targetIndex: this.#targets[index]! };
		for (const [actionType, moderation] of MODERATION_KINDS) if (kind === moderation) return { ...member, actionType } as ModerationRecord;
		if (kind === TIMEOUT)
			return {
				...member,
				actionType: AuditLogEvent.MemberUpdate,
				key: 'communication_disabled_until',
				oldUntil: this.#nickChanges[detail] ?? null,
				newUntil: this.#nickChanges[detail + 1] ?? null,
			};
		if (kind === NICK)
			return { ...member, actionType: AuditLogEvent.MemberUpdate, oldNick: this.#nickChanges[detail] ?? null, newNick: this.#nickChanges[detail + 1] ?? null };
		return { ...member, actionType: AuditLogEvent.MemberRoleUpdate, change: kind === ROLE_ADD ? '$add' : '$remove', role: { ...this.#roleTable[detail]! } };
	}

	#grow(): void {
		const capacity = this.#ids.length * 2;
		const ids = new BigUint64Array(capacity);
		ids.set(this.#ids);
		this.#ids = ids;
		this.#actors = growInt32(this.#actors, capacity);
		this.#targets = growInt32(this.#targets, capacity);
		this.#reasons = growInt32(this.#reasons, capacity);
		this.#details = growInt32(this.#details, capacity);
		const kinds = new Uint8Array(capacity);
		kinds.set(this.#kinds);
		this.#kinds = kinds;
	}
}

function growInt32(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
	const larger = new Int32Array(capacity);
	larger.set(array);
	return larger;
}
