import { endianness } from 'node:os';
import { type DecoratedName, decoratedName, isDecorated } from './decoratedNames.js';
import { generatedFraction, generatedGlobalName, generatedNick, generatedUsername } from './names.js';
import { DISCORD_EPOCH } from './snowflake.js';
import { toDiscordTimestamp } from './toDiscordTimestamp.js';

const REMOVED = 1;
const BOT = 2;
const CUSTOM_USER = 4;
/** Generated with a decorated nickname (the member had one) or display name (otherwise): what shows. */
const DECORATED_NICK = 8;
const DECORATED_NAME = 16;
const DECORATED = DECORATED_NICK | DECORATED_NAME;

const NICK_NONE = 0;
const NICK_GENERATED = 1;
const NICK_CUSTOM = 2;

/** Role set index meaning "look in the side map": the table holds at most 255 distinct sets. */
const CUSTOM_ROLES = 255;

/** Which 32-bit half of a 64-bit id comes first in memory. */
const LOW_WORD = endianness() === 'LE' ? 0 : 1;

/** A user whose name isn't derived from the seed: our bots, other bots, the owner. */
export interface CustomUser {
	username: string;
	globalName: string | null;
}

/** A generated member's decoration, and which of its names carries it: the one that shows. */
export interface MemberDecoration extends DecoratedName {
	on: 'nick' | 'globalName';
}

export interface MemberStoreOptions {
	/** Members at indices below this were generated; later ones joined at their id's time. Default 0. */
	generatedCount?: number;
	/** The share (0..1) of generated members whose shown name is decorated (see decoratedNames.ts). Default 0. */
	decoratedShare?: number;
}

/**
 * The guild's members, stored column by column so that ten million fit in a few hundred MB.
 *
 * Members live at an index: ids ascend with the index (members that join later get newer
 * snowflakes and are appended), so lookups are binary searches and `after` paging is a scan.
 * Usernames, display names, generated nicknames and join dates are derived from the seed and
 * the index when asked for; only what differs from that (custom nicknames, unusual role sets,
 * named users) sits in side maps. Removed members keep their slot with a flag. A decorated name
 * (the sandbox's `decoratedNames` option) is derived too: a flag bit says which name carries it.
 */
export class MemberStore {
	#ids: BigUint64Array;
	#words: Uint32Array;
	#flags: Uint8Array;
	#nickState: Uint8Array;
	#roleSet: Uint8Array;
	#count = 0;
	#removed = 0;
	readonly #customNicks = new Map<number, string>();
	readonly #customUsers = new Map<number, CustomUser>();
	readonly #customRoles = new Map<number, readonly string[]>();
	readonly #roleSets: (readonly string[])[] = [];
	readonly #roleSetIndex = new Map<string, number>();
	/** Join times (Unix ms) of members who joined at another time than their id's (a staged raid's). */
	readonly #joinedAt = new Map<number, number>();
	private generatedCount: number;
	readonly #decoratedShare: number;

	/**
	 * @param seed - what usernames and generated nicknames are derived from
	 * @param generatedAt - members generated before this moment joined between their account's creation and it
	 */
	public constructor(
		private readonly seed: number,
		private readonly generatedAt: number,
		capacity: number,
		{ generatedCount = 0, decoratedShare = 0 }: MemberStoreOptions = {},
	) {
		this.generatedCount = generatedCount;
		this.#decoratedShare = decoratedShare;
		this.#ids = new BigUint64Array(capacity);
		this.#words = new Uint32Array(this.#ids.buffer);
		this.#flags = new Uint8Array(capacity);
		this.#nickState = new Uint8Array(capacity);
		this.#roleSet = new Uint8Array(capacity);
		this.internRoleSet([]);
	}

	/** Members currently in the guild. */
	public get size(): number {
		return this.#count - this.#removed;
	}

	/** Slots used, including removed members. */
	public get length(): number {
		return this.#count;
	}

	/**
	 * Appends a member whose id is given as two 32-bit halves (fast path for generation, which
	 * never builds a BigInt). The id must be greater than every id already stored.
	 */
	public pushWords(high: number, low: number, roleSet: number, generatedNickname: boolean): number {
		const index = this.#count;
		if (index === this.#flags.length) this.#grow();
		this.#words[index * 2 + LOW_WORD] = low;
		this.#words[index * 2 + (1 - LOW_WORD)] = high;
		this.#roleSet[index] = roleSet;
		this.#nickState[index] = generatedNickname ? NICK_GENERATED : NICK_NONE;
		// The nickname shows when there is one, so that is the name decorated.
		if (isDecorated(this.seed, index, this.#decoratedShare)) this.#flags[index] = generatedNickname ? DECORATED_NICK : DECORATED_NAME;
		this.#count++;
		return index;
	}

	/** Appends a member that joined now; `id` must be greater than every stored id. */
	public push(id: bigint, roles: readonly string[]): number {
		if (this.#count > 0 && id <= this.idAt(this.#count - 1)) throw new RangeError(`member ids must ascend: ${id}`);
		const index = this.#count;
		if (index === this.#flags.length) this.#grow();
		this.#ids[index] = id;
		this.#nickState[index] = NICK_NONE;
		this.setRoles(index, roles);
		this.#count++;
		return index;
	}

	/** Marks the end of generation: from here on, members join at their id's creation time. */
	public finishGeneration(): void {
		this.generatedCount = this.#count;
	}

	/** Index of a current member with this id, or -1. */
	public indexOf(id: bigint): number {
		const index = this.lowerBound(id);
		return index < this.#count && this.#ids[index] === id && (this.#flags[index]! & REMOVED) === 0 ? index : -1;
	}

	/**
	 * The slot that holds this id, whether its member is still in the guild or left, or -1: a user
	 * who left is still a user (a ban names them), just no longer a member.
	 */
	public slotOf(id: bigint): number {
		const index = this.lowerBound(id);
		return index < this.#count && this.#ids[index] === id ? index : -1;
	}

	/** The first index whose id is at least `id` (`length` when there is none). */
	public lowerBound(id: bigint): number {
		let low = 0;
		let high = this.#count;
		while (low < high) {
			const middle = (low + high) >>> 1;
			if (this.#ids[middle]! < id) low = middle + 1;
			else high = middle;
		}
		return low;
	}

	/** Indices of current members with ids above `after`, in id order, at most `limit` of them. */
	public page(after: bigint, limit: number): number[] {
		const result: number[] = [];
		for (let index = this.lowerBound(after + 1n); index < this.#count && result.length < limit; index++) {
			if ((this.#flags[index]! & REMOVED) === 0) result.push(index);
		}
		return result;
	}

	/** Every current member's index, in id order. */
	public *indices(): IterableIterator<number> {
		for (let index = 0; index < this.#count; index++) if ((this.#flags[index]! & REMOVED) === 0) yield index;
	}

	public idAt(index: number): bigint {
		return this.#ids[index]!;
	}

	public isRemoved(index: number): boolean {
		return (this.#flags[index]! & REMOVED) !== 0;
	}

	public remove(index: number): void {
		if (this.isRemoved(index)) return;
		this.#flags[index]! |= REMOVED;
		this.#customNicks.delete(index);
		this.#removed++;
	}

	public isBot(index: number): boolean {
		return (this.#flags[index]! & BOT) !== 0;
	}

	/** Gives a member a name that isn't derived from the seed (and optionally makes it a bot). */
	public setCustomUser(index: number, user: CustomUser, bot: boolean): void {
		this.#customUsers.set(index, user);
		this.#flags[index] = (this.#flags[index]! & ~DECORATED) | CUSTOM_USER | (bot ? BOT : 0);
	}

	public username(index: number): string {
		return (this.#flags[index]! & CUSTOM_USER) === 0 ? generatedUsername(this.seed, index) : this.#customUsers.get(index)!.username;
	}

	public globalName(index: number): string | null {
		const flags = this.#flags[index]!;
		if ((flags & CUSTOM_USER) !== 0) return this.#customUsers.get(index)!.globalName;
		return (flags & DECORATED_NAME) === 0 ? generatedGlobalName(this.seed, index) : decoratedName(this.seed, index).name;
	}

	public nick(index: number): string | null {
		switch (this.#nickState[index]) {
			case NICK_GENERATED:
				return (this.#flags[index]! & DECORATED_NICK) === 0 ? generatedNick(this.seed, index) : decoratedName(this.seed, index).name;
			case NICK_CUSTOM:
				return this.#customNicks.get(index) ?? null;
			default:
				return null;
		}
	}

	/**
	 * The decoration the member was generated with, or `null`. It stays what it was when a nickname
	 * is set or cleared: a display name keeps its decoration, a nickname replaced is gone from
	 * {@link nick} but is still what the member was generated with.
	 */
	public decoration(index: number): MemberDecoration | null {
		const flags = this.#flags[index]!;
		if ((flags & DECORATED) === 0) return null;
		return { ...decoratedName(this.seed, index), on: (flags & DECORATED_NICK) === 0 ? 'globalName' : 'nick' };
	}

	/** Sets (or with `null`, clears) a member's nickname. */
	public setNick(index: number, nick: string | null): void {
		if (nick === null) {
			this.#nickState[index] = NICK_NONE;
			this.#customNicks.delete(index);
		} else {
			this.#nickState[index] = NICK_CUSTOM;
			this.#customNicks.set(index, nick);
		}
	}

	/** Members with a nickname right now (generated ones included). */
	public countNicknamed(): number {
		let count = 0;
		for (let index = 0; index < this.#count; index++) if (this.#nickState[index] !== NICK_NONE && (this.#flags[index]! & REMOVED) === 0) count++;
		return count;
	}

	public roles(index: number): readonly string[] {
		const set = this.#roleSet[index]!;
		return set === CUSTOM_ROLES ? (this.#customRoles.get(index) ?? []) : this.#roleSets[set]!;
	}

	public setRoles(index: number, roles: readonly string[]): void {
		const set = this.internRoleSet(roles);
		this.#roleSet[index] = set;
		if (set === CUSTOM_ROLES) this.#customRoles.set(index, [...roles]);
		else this.#customRoles.delete(index);
	}

	/**
	 * Takes a role from every member, as deleting it does, in one pass over the role-set column
	 * whatever the guild's size: each shared set that holds it is rewritten once (or folded into
	 * the set it becomes, if that exists already), and members are moved byte by byte, with no
	 * allocation per member. Only members in the side map get a new array.
	 */
	public removeRoleEverywhere(roleId: string): void {
		const remap = new Uint8Array(CUSTOM_ROLES + 1).map((_, set) => set);
		let moved = false;
		this.#roleSets.forEach((roles, set) => {
			if (!roles.includes(roleId)) return;
			const reduced = roles.filter((id) => id !== roleId);
			const key = [...reduced].sort().join(',');
			const existing = this.#roleSetIndex.get(key);
			if (existing === undefined) {
				// Rewritten in place: its members keep their set index.
				this.#roleSetIndex.delete([...roles].sort().join(','));
				this.#roleSets[set] = Object.freeze(reduced);
				this.#roleSetIndex.set(key, set);
			} else {
				remap[set] = existing;
				moved = true;
			}
		});
		if (moved) for (let index = 0; index < this.#count; index++) this.#roleSet[index] = remap[this.#roleSet[index]!]!;
		for (const [index, roles] of this.#customRoles)
			if (roles.includes(roleId))
				this.setRoles(
					index,
					roles.filter((id) => id !== roleId),
				);
	}

	/**
	 * How many current members hold each role: one pass over the role-set column, so it costs
	 * milliseconds even for ten million members. Roles nobody holds are absent.
	 */
	public countByRole(): Map<string, number> {
		const perSet = new Uint32Array(this.#roleSets.length);
		const counts = new Map<string, number>();
		const add = (roles: readonly string[], count: number): void => {
			for (const role of roles) counts.set(role, (counts.get(role) ?? 0) + count);
		};
		for (let index = 0; index < this.#count; index++) {
			if ((this.#flags[index]! & REMOVED) !== 0) continue;
			const set = this.#roleSet[index]!;
			if (set === CUSTOM_ROLES) add(this.#customRoles.get(index) ?? [], 1);
			else perSet[set]!++;
		}
		perSet.forEach((count, set) => count > 0 && add(this.#roleSets[set]!, count));
		return counts;
	}

	/**
	 * The index of a role set in the shared table, adding it if there is room; `CUSTOM_ROLES`
	 * once the table is full (the member's roles then go to the side map).
	 */
	public internRoleSet(roles: readonly string[]): number {
		const key = [...roles].sort().join(',');
		const existing = this.#roleSetIndex.get(key);
		if (existing !== undefined) return existing;
		if (this.#roleSets.length >= CUSTOM_ROLES) return CUSTOM_ROLES;
		this.#roleSets.push(Object.freeze([...roles]));
		this.#roleSetIndex.set(key, this.#roleSets.length - 1);
		return this.#roleSets.length - 1;
	}

	/** Sets when a member joined (Unix ms), for a member who joined later than their account was made. */
	public setJoinedAt(index: number, ms: number): void {
		this.#joinedAt.set(index, ms);
	}

	/** When the member joined, as Discord's ISO 8601 timestamp. */
	public joinedAt(index: number): string {
		const set = this.#joinedAt.get(index);
		if (set !== undefined) return toDiscordTimestamp(set);
		// The id's creation time from its two 32-bit halves: no BigInt on this hot path.
		const high = this.#words[index * 2 + (1 - LOW_WORD)]!;
		const low = this.#words[index * 2 + LOW_WORD]!;
		const created = DISCORD_EPOCH + high * 1024 + Math.floor(low / 4_194_304);
		const joined =
			index < this.generatedCount ? created + Math.floor(generatedFraction(this.seed, index, 4) * Math.max(0, this.generatedAt - created)) : created;
		return toDiscordTimestamp(joined);
	}

	#grow(): void {
		const capacity = Math.max(16, Math.ceil(this.#flags.length * 1.5));
		const ids = new BigUint64Array(capacity);
		ids.set(this.#ids);
		this.#ids = ids;
		this.#words = new Uint32Array(ids.buffer);
		this.#flags = grow(this.#flags, capacity);
		this.#nickState = grow(this.#nickState, capacity);
		this.#roleSet = grow(this.#roleSet, capacity);
	}
}

function grow(array: Uint8Array, capacity: number): Uint8Array {
	const larger = new Uint8Array(capacity);
	larger.set(array);
	return larger;
}
