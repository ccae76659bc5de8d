import { AuditLogEvent } from 'discord-api-types/v10';

/** One MEMBER_UPDATE entry as stored: member indices instead of ids, the reason interned. */
export interface AuditLogRecord {
	id: bigint;
	actorIndex: number;
	targetIndex: number;
	reason: string | null;
	oldNick: string | null;
	newNick: string | null;
}

/**
 * The guild's audit log. Only nickname changes (MEMBER_UPDATE, action type 24) are recorded,
 * the only thing the sandbox changes; a full guild rename writes one entry per member, so the
 * entries are kept in columns, with reasons interned (one job uses one reason).
 *
 * @see {@link https://discord.com/developers/docs/resources/audit-log}
 */
export class AuditLog {
	#ids = new BigUint64Array(1024);
	#actors = new Int32Array(1024);
	#targets = new Int32Array(1024);
	#reasons = new Int32Array(1024);
	readonly #oldNicks: (string | null)[] = [];
	readonly #newNicks: (string | null)[] = [];
	readonly #reasonTable: (string | null)[] = [null];
	readonly #reasonIndex = new Map<string | null, number>([[null, 0]]);
	#count = 0;

	public get size(): number {
		return this.#count;
	}

	public add(record: AuditLogRecord): void {
		if (this.#count === this.#ids.length) this.#grow();
		const index = this.#count++;
		this.#ids[index] = record.id;
		this.#actors[index] = record.actorIndex;
		this.#targets[index] = record.targetIndex;
		let reason = this.#reasonIndex.get(record.reason);
		if (reason === undefined) {
			reason = this.#reasonTable.push(record.reason) - 1;
			this.#reasonIndex.set(record.reason, reason);
		}
		this.#reasons[index] = reason;
		this.#oldNicks.push(record.oldNick);
		this.#newNicks.push(record.newNick);
	}

	/**
	 * Entries newest first, as Discord returns them: only ids below `before` and above `after`,
	 * only those made by `actorIndex` when given, at most `limit`.
	 */
	public query(options: { limit: number; before?: bigint; after?: bigint; actorIndex?: number; actionType?: number }): AuditLogRecord[] {
		const result: AuditLogRecord[] = [];
		if (options.actionType !== undefined && options.actionType !== AuditLogEvent.MemberUpdate) return result;
		for (let index = this.#count - 1; index >= 0 && result.length < options.limit; index--) {
			const id = this.#ids[index]!;
			if (options.before !== undefined && id >= options.before) continue;
			if (options.after !== undefined && id <= options.after) break;
			if (options.actorIndex !== undefined && this.#actors[index] !== options.actorIndex) continue;
			result.push({
				id,
				actorIndex: this.#actors[index]!,
				targetIndex: this.#targets[index]!,
				reason: this.#reasonTable[this.#reasons[index]!] ?? null,
				oldNick: this.#oldNicks[index] ?? null,
				newNick: this.#newNicks[index] ?? null,
			});
		}
		return result;
	}

	#grow(): void {
		const capacity = this.#ids.length * 2;
		const ids = new BigUint64Array(capacity);
		ids.set(this.#ids);
		this.#ids = ids;
		this.#actors = growInt32(this.#actors, capacity);
		this.#targets = growInt32(this.#targets, capacity);
		this.#reasons = growInt32(this.#reasons, capacity);
	}
}

function growInt32(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
	const larger = new Int32Array(capacity);
	larger.set(array);
	return larger;
}
