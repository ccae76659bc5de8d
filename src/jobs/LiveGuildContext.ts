import { type Client, Events } from 'discord.js';
import type { GuildContext } from './GuildContext.js';

/** Discord's events after which the roles' order, or our bots' own roles, may differ. */
const CHANGES = [Events.GuildRoleCreate, Events.GuildRoleUpdate, Events.GuildRoleDelete, Events.GuildMemberUpdate] as const;

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

	constructor(read: () => GuildContext, clients: readonly Client[]) {
		this.#read = read;
		this.#clients = clients;
		for (const client of clients) for (const event of CHANGES) client.on(event, this.#invalidate);
	}

	get(): GuildContext {
		this.#current ??= this.#read();
		return this.#current;
	}

	/** Stops listening: the job has ended. */
	stop(): void {
		for (const client of this.#clients) for (const event of CHANGES) client.off(event, this.#invalidate);
	}
}
