import { type Client, Events, type GuildMember, type PartialGuildMember } from 'discord.js';
import type { GuildContext } from './GuildContext.js';

/** Discord's events after which the roles' order may differ. */
const ROLE_CHANGES = [Events.GuildRoleCreate, Events.GuildRoleUpdate, Events.GuildRoleDelete] as const;

/**
 * The guild as a running job plans with: its roles' positions, the workers' highest, the owner,
 * read once and read again after each event that may change them (a moderator moving a role
 * above the workers, the workers' own role moved or taken). A member is planned when a worker
 * takes them, so after such an event no member newly out of reach is sent to Discord: only what
 * was already on the wire meets the change.
 *
 * Every client's events count (the boss's and each worker's): the context is read from one
 * client's cache, and each connection gets the event in its own time.
 */
export class LiveGuildContext {
	readonly #read: () => GuildContext;
	readonly #clients: readonly Client[];
	#current: GuildContext | undefined;
	readonly #invalidate = (): void => {
		this.#current = undefined;
	};
	/**
	 * Only our own bots' member updates (their roles taken or given) change the context. The boss
	 * has the members intent, so it hears every member's update, one per change the job makes:
	 * reading the context again for each would put that work on the job's path.
	 */
	readonly #memberUpdated = (_old: GuildMember | PartialGuildMember, member: GuildMember): void => {
		if (this.#clients.some((client) => client.user?.id === member.id)) this.#current = undefined;
	};

	constructor(read: () => GuildContext, clients: readonly Client[]) {
		this.#read = read;
		this.#clients = clients;
		for (const client of clients) {
			for (const event of ROLE_CHANGES) client.on(event, this.#invalidate);
			client.on(Events.GuildMemberUpdate, this.#memberUpdated);
		}
	}

	get(): GuildContext {
		this.#current ??= this.#read();
		return this.#current;
	}

	/** Stops listening: the job has ended. */
	stop(): void {
		for (const client of this.#clients) {
			for (const event of ROLE_CHANGES) client.off(event, this.#invalidate);
			client.off(Events.GuildMemberUpdate, this.#memberUpdated);
		}
	}
}
