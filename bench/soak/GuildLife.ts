import { setTimeout as sleep } from 'node:timers/promises';
import type { Random, SandboxControl } from '@massnick/discord-sandbox';
import { GUILD_LIFE } from './schedule.js';

/**
 * The guild's own life while a job runs, as schedule.ts paces it: members join, members who
 * were there at the start leave (never the owner), and members rename themselves. What it did is
 * kept for the invariants: who joined, who left (with the request log's last sequence number
 * once they had gone) and who renamed themselves.
 */
export class GuildLife {
	readonly joined = new Set<string>();
	readonly left = new Map<string, number>();
	readonly ownNick = new Set<string>();
	readonly #control: SandboxControl;
	readonly #guild: { guildId: string; ownerId: string };
	readonly #before: ReadonlyMap<string, string | null>;
	readonly #everyone: readonly string[];
	readonly #random: Random;
	#living = true;
	readonly #done: Promise<void>;

	/** Starts it; `before`: the members at the start (id → nickname). */
	constructor(control: SandboxControl, guild: { guildId: string; ownerId: string }, before: ReadonlyMap<string, string | null>, random: Random) {
		this.#control = control;
		this.#guild = guild;
		this.#before = before;
		this.#everyone = [...before.keys()];
		this.#random = random;
		this.#done = this.#live();
	}

	/** Stops it after the tick under way. */
	async stop(): Promise<void> {
		this.#living = false;
		await this.#done;
	}

	async #live(): Promise<void> {
		const control = this.#control;
		const { guildId, ownerId } = this.#guild;
		for (let tick = 0; this.#living; tick++) {
			try {
				for (const id of (await control.addMembers(guildId, GUILD_LIFE.joins)).ids) this.joined.add(id);
				for (let n = 0; n < GUILD_LIFE.leaves; n++) {
					const id = this.#random.pick(this.#everyone);
					if (this.left.has(id) || id === ownerId || !this.#before.has(id)) continue;
					await control.removeMember(guildId, id).catch(() => {});
					this.left.set(id, (await control.requests(0, 1)).lastSeq);
				}
				for (let n = 0; n < GUILD_LIFE.ownNicks; n++) {
					const id = this.#random.pick(this.#everyone);
					if (this.left.has(id) || id === ownerId) continue;
					await control.setOwnNick(guildId, id, `Own ${tick}`).catch(() => {});
					this.ownNick.add(id);
				}
			} catch {
				// The control API answers even under faults; a failed tick is skipped.
			}
			await sleep(GUILD_LIFE.tickMs);
		}
	}
}
