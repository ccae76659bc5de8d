import { type APIBan, REST, Routes } from 'discord.js';
import type { SandboxProcess } from '../SandboxProcess.js';

/** The guild's members, bans and timeouts at one moment, as the raid bench checks them. */
export interface GuildSnapshot {
	/** Unix ms when it was read. */
	readonly at: number;
	/** Every member, by id: when their timeout ends (Unix ms; it may be past), or null. */
	readonly members: ReadonlyMap<string, number | null>;
	/** Every banned user's id. */
	readonly banned: ReadonlySet<string>;
}

/** Get Guild Bans' largest page. */
const BAN_PAGE = 1000;

/**
 * Reads the guild as it is: its members from the sandbox's control API (which shows each one's
 * timeout), its ban list through Discord's own route, `GET /guilds/{id}/bans`, with the boss's
 * token (its role holds Ban Members in the raid bench). Call it while no subject runs: the pages
 * count against the boss's ban-list bucket.
 */
export async function readGuildSnapshot(sandbox: SandboxProcess, offsetMs: number): Promise<GuildSnapshot> {
	const { info } = sandbox;
	const at = Date.now();
	const members = new Map<string, number | null>();
	for (const member of await sandbox.control.members(info.guildId)) {
		members.set(member.id, member.communicationDisabledUntil === undefined ? null : Date.parse(member.communicationDisabledUntil));
	}
	const rest = new REST({ api: info.apiUrl, offset: offsetMs }).setToken(info.bossToken);
	const banned = new Set<string>();
	for (let after = '0'; ; ) {
		const page = (await rest.get(Routes.guildBans(info.guildId), { query: new URLSearchParams({ limit: String(BAN_PAGE), after }) })) as APIBan[];
		for (const ban of page) banned.add(ban.user.id);
		if (page.length < BAN_PAGE) break;
		after = page.at(-1)!.user.id;
	}
	return { at, members, banned };
}
