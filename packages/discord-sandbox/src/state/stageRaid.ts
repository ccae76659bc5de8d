import { GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import { Random } from './random.js';
import type { SandboxState } from './SandboxState.js';
import { makeSnowflake, snowflakeTimestamp } from './snowflake.js';

/** What a staged raid looks like; every field but `count` has a default. */
export interface RaidOptions {
	/** Raid accounts (1..100,000). */
	count: number;
	/** Ordinary people joining in the same window (0..100,000). Default 0. */
	realJoiners?: number;
	/** The window the joins are spread over, ending now. Default 10 minutes. */
	windowMs?: number;
	/** How long before joining each raid account was made, at most. Default 30 minutes. */
	accountAgeMs?: number;
	/** The raid accounts' display name, `{n}` the account's number from 1. Default `free nitro {n}`. */
	names?: string;
	/** Varies the draw; the sandbox's seed is mixed in. Default 0. */
	seed?: number;
}

/** Who joined: the raid accounts' ids and the real joiners', each in join order. */
export interface StagedRaid {
	raidIds: string[];
	realIds: string[];
}

/** A real joiner's account is at least this old (unless the guild's newest id forbids it). */
const REAL_ACCOUNT_MIN_AGE_MS = 7 * 86_400_000;

interface Joiner {
	id: bigint;
	joinedAt: number;
	raid: number | null;
}

/** A joiner before its id: when its account was asked to be made, and the id's other fields. */
interface Asked {
	createdAt: number;
	parts: [worker: number, process: number, increment: number];
	joinedAt: number;
	raid: number | null;
}

/**
 * Stages a raid, as servers meet them: `count` accounts made minutes before they join, named from
 * one pattern, joining within `windowMs` (their `joined_at` spread over it), among `realJoiners`
 * ordinary people with older accounts joining in the same window. Every joiner gets
 * GUILD_MEMBER_ADD, in join order, and no roles. Drawn from the sandbox's seed (and `seed`), so
 * a run repeats; ids come from the clock, and always above every id the guild holds (the member
 * store keeps ids ascending). When the guild's newest member is too recent for the accounts'
 * ages (a second wave staged seconds after a first), their creation times are drawn again over
 * the time there is since then, in the order asked: younger than asked, but each its own
 * millisecond, as Discord's are, rather than all on that newest id's (which would put every one
 * in one worker's part of the id space).
 */
export function stageRaid(state: SandboxState, options: RaidOptions): StagedRaid {
	const { count, realJoiners = 0, windowMs = 10 * 60_000, accountAgeMs = 30 * 60_000, names = 'free nitro {n}', seed = 0 } = options;
	const random = new Random((state.options.seed * 0x9e3779b1) ^ (seed + 0x7a1d));
	const now = state.now();
	const floor = snowflakeTimestamp(state.members.idAt(state.members.length - 1)) + 1;
	const join = (): number => Math.max(floor, now - windowMs + Math.floor(random.next() * windowMs));
	const parts = (): Asked['parts'] => [random.int(32), random.int(32), random.int(4096)];
	const asked: Asked[] = [];
	for (let n = 0; n < count; n++) {
		const joinedAt = join();
		asked.push({ createdAt: joinedAt - Math.floor(random.next() * accountAgeMs), parts: parts(), joinedAt, raid: n + 1 });
	}
	const oldest = now - windowMs - REAL_ACCOUNT_MIN_AGE_MS;
	for (let n = 0; n < realJoiners; n++) {
		// With no time above the newest id for so old an account, asked older still: the spread keeps it before the raid's.
		const draw = random.next();
		const createdAt = oldest > floor ? floor + Math.floor(draw * (oldest - floor)) : oldest - Math.floor(draw * windowMs);
		asked.push({ createdAt, parts: parts(), joinedAt: join(), raid: null });
	}
	if (asked.some((joiner) => joiner.createdAt < floor)) spreadAbove(asked, floor, Math.max(floor, now), random);
	const joiners: Joiner[] = asked.map(({ createdAt, parts: [worker, process, increment], joinedAt, raid }) => ({
		id: makeSnowflake(Math.min(now, Math.max(floor, createdAt)), worker, process, increment),
		joinedAt,
		raid,
	}));

	// The store wants ascending ids: sort, and nudge equal ids apart.
	joiners.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	for (let n = 1; n < joiners.length; n++) if (joiners[n]!.id <= joiners[n - 1]!.id) joiners[n]!.id = joiners[n - 1]!.id + 1n;
	const added = joiners.map((joiner) => {
		const index = state.members.push(joiner.id, []);
		// Never before the account was made.
		joiner.joinedAt = Math.max(joiner.joinedAt, snowflakeTimestamp(joiner.id));
		state.members.setJoinedAt(index, joiner.joinedAt);
		if (joiner.raid !== null) {
			const globalName = names.replaceAll('{n}', String(joiner.raid));
			state.members.setCustomUser(index, { username: usernameOf(globalName, joiner.raid), globalName }, false);
		}
		return { ...joiner, index };
	});
	if (joiners.length > 0) state.snowflakes.advancePast(joiners.at(-1)!.id);

	added.sort((a, b) => a.joinedAt - b.joinedAt);
	for (const { index } of added) {
		state.events.emit({
			guildId: state.guildId,
			t: GatewayDispatchEvents.GuildMemberAdd,
			d: { guild_id: state.guildId, ...state.memberJson(index) },
			intent: GatewayIntentBits.GuildMembers,
		});
	}
	const ids = (raid: boolean): string[] => added.filter((joiner) => (joiner.raid !== null) === raid).map((joiner) => joiner.id.toString());
	return { raidIds: ids(true), realIds: ids(false) };
}

/**
 * Draws the joiners' creation times again, uniformly over `from..to`, and hands them out in the
 * order they were asked: the oldest asked gets the earliest drawn.
 */
function spreadAbove(asked: Asked[], from: number, to: number, random: Random): void {
	const drawn = asked.map(() => from + Math.floor(random.next() * (to - from + 1))).sort((a, b) => a - b);
	const byAge = [...asked].sort((a, b) => a.createdAt - b.createdAt);
	byAge.forEach((joiner, rank) => {
		joiner.createdAt = drawn[rank]!;
	});
}

/** A Discord username from a display name: 2–32 of `a-z 0-9 _ .`, with the account's number if nothing is left. */
function usernameOf(globalName: string, n: number): string {
	const slug = globalName
		.toLowerCase()
		.replace(/\s+/g, '_')
		.replace(/[^a-z0-9_.]/g, '')
		.slice(0, 32);
	return slug.length >= 2 ? slug : `raider_${n}`;
}
