import type { APIApplicationCommand } from 'discord-api-types/v10';

/** Guild application commands, per (application, guild), as the last bulk overwrite left them. */
export class CommandStore {
	readonly #commands = new Map<string, APIApplicationCommand[]>();

	public list(applicationId: string, guildId: string): APIApplicationCommand[] {
		return this.#commands.get(`${applicationId}:${guildId}`) ?? [];
	}

	public set(applicationId: string, guildId: string, commands: APIApplicationCommand[]): void {
		this.#commands.set(`${applicationId}:${guildId}`, commands);
	}

	/** Registered commands with this name in a guild, across applications (the control API invokes them). */
	public findByName(guildId: string, name: string): APIApplicationCommand[] {
		const found: APIApplicationCommand[] = [];
		for (const commands of this.#commands.values()) {
			for (const command of commands) if (command.guild_id === guildId && command.name === name) found.push(command);
		}
		return found;
	}
}
