import { type Client, Events, GatewayDispatchEvents, type Guild, type Role } from 'discord.js';
import type { Job } from '../../jobs/index.js';
import { RecheckSchedule, type Timer } from './RecheckSchedule.js';

/** A burst of role events (one role moved shifts every role between) is one re-check a second later. */
export const SETTLE_MS = 1000;
/** Every rule's requester is re-checked this often anyway, in case a gateway event was missed. */
export const RECHECK_EVERY_MS = 15 * 60 * 1000;

export interface RequesterWatchOptions {
	/** The boss's client: it has the members intent, so it hears every member's update and leave. */
	readonly client: Client;
	readonly guildId: string;
	/** The standing rules running now. */
	readonly rules: () => readonly Job[];
	/** Re-checks the requester of every rule, stopping those who may no longer have it (see `recheckRules`). */
	readonly recheck: () => Promise<unknown>;
	/** Told of a re-check that threw: the watch goes on. */
	readonly failed: (error: unknown) => void;
	readonly settleMs?: number | undefined;
	readonly everyMs?: number | undefined;
	readonly timer?: Timer | undefined;
}

/**
 * Re-checks the standing rules' requesters while the rules run, not only at a restart: on each
 * event after which one may no longer have a rule go on, gathered a moment so a burst is one
 * re-check. A role's permissions or position changed, or the role deleted (GUILD_ROLE_UPDATE,
 * GUILD_ROLE_DELETE; a role created may push others up); a requester's roles changed or they left
 * (GUILD_MEMBER_UPDATE, GUILD_MEMBER_REMOVE, read raw as the boss reads every member event: the
 * member cache is off); the server given another owner (GUILD_UPDATE). And every
 * {@link RECHECK_EVERY_MS} anyway. Nothing is read from Discord while no rule runs.
 *
 * @see https://discord.com/developers/docs/events/gateway-events#guild-role-update
 */
export class RequesterWatch {
	readonly #options: RequesterWatchOptions;
	readonly #schedule: RecheckSchedule;
	readonly #roleChanged = (role: Role): void => {
		if (role.guild.id === this.#options.guildId) this.#anyRule();
	};
	readonly #roleUpdated = (_old: Role, role: Role): void => this.#roleChanged(role);
	readonly #guildUpdated = (old: Guild, guild: Guild): void => {
		if (guild.id === this.#options.guildId && old.ownerId !== guild.ownerId) this.#anyRule();
	};
	readonly #raw = (packet: { t?: string; d?: unknown }): void => {
		if (packet.t !== GatewayDispatchEvents.GuildMemberUpdate && packet.t !== GatewayDispatchEvents.GuildMemberRemove) return;
		const data = packet.d as { guild_id?: string; user?: { id?: string } } | undefined;
		if (data?.guild_id !== this.#options.guildId) return;
		// A rule's own changes are member updates too, one per member: only a requester's count.
		const userId = data.user?.id;
		if (this.#options.rules().some((rule) => rule.startedBy.id === userId)) this.#schedule.soon();
	};

	constructor(options: RequesterWatchOptions) {
		this.#options = options;
		this.#schedule = new RecheckSchedule(() => (this.#options.rules().length === 0 ? Promise.resolve() : options.recheck()), {
			settleMs: options.settleMs ?? SETTLE_MS,
			everyMs: options.everyMs ?? RECHECK_EVERY_MS,
			failed: options.failed,
			timer: options.timer,
		});
		const { client } = options;
		client.on(Events.GuildRoleCreate, this.#roleChanged);
		client.on(Events.GuildRoleUpdate, this.#roleUpdated);
		client.on(Events.GuildRoleDelete, this.#roleChanged);
		client.on(Events.GuildUpdate, this.#guildUpdated);
		client.on(Events.Raw, this.#raw);
	}

	/** Stops listening, and waits for a re-check under way. */
	async stop(): Promise<void> {
		const { client } = this.#options;
		client.off(Events.GuildRoleCreate, this.#roleChanged);
		client.off(Events.GuildRoleUpdate, this.#roleUpdated);
		client.off(Events.GuildRoleDelete, this.#roleChanged);
		client.off(Events.GuildUpdate, this.#guildUpdated);
		client.off(Events.Raw, this.#raw);
		this.#schedule.stop();
		await this.#schedule.settled();
	}

	#anyRule(): void {
		if (this.#options.rules().length > 0) this.#schedule.soon();
	}
}
