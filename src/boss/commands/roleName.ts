import type { Guild } from 'discord.js';

/** A role's name for people, `@` included: `@Staff`, `@everyone` for the guild's id. */
export function roleNameIn(guild: Guild): (id: string) => string {
	return (id) => (id === guild.id ? '@everyone' : `@${guild.roles.cache.get(id)?.name ?? `deleted-role-${id}`}`);
}
