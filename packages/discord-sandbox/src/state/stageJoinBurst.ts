import { GatewayDispatchEvents, GatewayIntentBits } from 'discord-api-types/v10';
import { Random } from './random.js';
import type { SandboxState } from './SandboxState.js';
import { makeSnowflake, snowflakeTimestamp } from './snowflake.js';

/** A join burst: accounts made in the last while, joining one after another over a window from now. */
export interface JoinBurstOptions {
	/** Joiners (1..100,000). */
	count: number;
	/** The time the joins are spread over, from now on the sandbox's clock (its rate limits' time ÷ the time scale). */
	windowMs: number;
	/** How long before the burst each account was made, at most. Default a day. */
	accountAgeMs?: number;
	/** Varies the draw; the sandbox's seed is mixed in. Default 0. */
	seed?: number;
}

/** Who will join and when, as planned when the burst is staged; each joins at its time, not before. */
export interface StagedJoinBurst {
	/** The joiners' ids, in join order (ascending). */
	ids: string[];
	/** When each is due to join (Unix ms, the sandbox's clock), in the same order. */
	joinsAt: number[];
}

/** The most a timer waits before it looks at the clock again (the clock may be a test's). */
const MAX_TICK_MS = 1000;

/**
 * Stages a join burst as a raid brings one: `count` accounts made within `accountAgeMs` before
 * now, joining over the next `windowMs`, each at its own moment, with GUILD_MEMBER_ADD sent as it
 * joins (not all at once, as {@link stageRaid} does for joins already past). Their `joined_at` is
 * when the sandbox added them. The accounts' creation times are drawn uniformly (above every id
 * the guild holds: the member store keeps ids ascending), so each lands in any worker's part of
 * the id space alike; the joins come in id order. Drawn from the sandbox's seed and `seed`; ids
 * come from the clock.
 *
 * A member added another way while the burst runs (its id made now) is above the joiners still
 * to come: each of them then gets the next free id instead of the planned one, and its
 * GUILD_MEMBER_ADD says which.
 */
export function stageJoinBurst(state: SandboxState, options: JoinBurstOptions): StagedJoinBurst {
	const { count, windowMs, accountAgeMs = 86_400_000, seed = 0 } = options;
	const random = new Random((state.options.seed * 0x85ebca6b) ^ (seed + 0x5bd1));
	const now = state.now();
	const floor = snowflakeTimestamp(state.members.idAt(state.members.length - 1)) + 1;
	const from = Math.min(now, Math.max(floor, now - accountAgeMs));
	const made = Array.from({ length: count }, () => from + Math.floor(random.next() * (now - from + 1))).sort((a, b) => a - b);
	const ids = made.map((ms) => makeSnowflake(ms, random.int(32), random.int(32), random.int(4096)));
	ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	// Two accounts drawn in one millisecond with the same parts: nudge the later one up.
	for (let n = 1; n < ids.length; n++) if (ids[n]! <= ids[n - 1]!) ids[n] = ids[n - 1]! + 1n;
	const joinsAt = Array.from({ length: count }, () => now + Math.floor(random.next() * (windowMs + 1))).sort((a, b) => a - b);

	let next = 0;
	const join = (at: number): void => {
		let id = ids[next]!;
		const newest = state.members.idAt(state.members.length - 1);
		if (id <= newest) id = newest + 1n;
		next++;
		const index = state.members.push(id, []);
		state.members.setJoinedAt(index, Math.max(at, snowflakeTimestamp(id)));
		state.snowflakes.advancePast(id);
		state.events.emit({
			guildId: state.guildId,
			t: GatewayDispatchEvents.GuildMemberAdd,
			d: { guild_id: state.guildId, ...state.memberJson(index) },
			intent: GatewayIntentBits.GuildMembers,
		});
	};
	const tick = (): void => {
		const at = state.now();
		while (next < count && joinsAt[next]! <= at) join(at);
		if (next < count) setTimeout(tick, Math.max(1, Math.min(MAX_TICK_MS, joinsAt[next]! - at))).unref();
	};
	tick();
	return { ids: ids.map(String), joinsAt };
}
