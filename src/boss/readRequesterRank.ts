import type { BaseInteraction, Guild } from 'discord.js';
import type { RequesterRank } from '../jobs/index.js';

/**
 * How far the member behind an interaction reaches by hand, from what Discord sent with it (their
 * roles as they are at the moment of the command or the press) and the roles' positions in the
 * boss's cache (kept current by role events). Read at every command and every Start, so a member
 * demoted between a preview and its Start gets the new bound; and before a job resumes after a
 * restart, from the member fetched then (`{ user: member.user, member }`).
 *
 * The owner is above the hierarchy; everyone else, Administrator or not, is bounded by their
 * highest role. A role the cache does not know (deleted this instant) ranks nothing.
 *
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function readRequesterRank(interaction: Pick<BaseInteraction, 'user' | 'member'>, guild: Guild): RequesterRank {
	const userId = interaction.user.id;
	if (userId === guild.ownerId) return { kind: 'owner', userId };
	const member = interaction.member;
	const roleIds = member && 'cache' in member.roles ? [...member.roles.cache.keys()] : ((member?.roles as string[] | undefined) ?? []);
	let position = 0;
	let roleName = 'everyone';
	let roleId: string | undefined;
	for (const id of roleIds) {
		const role = guild.roles.cache.get(id);
		if (role && id !== guild.id && role.position > position) {
			position = role.position;
			roleName = role.name;
			roleId = id;
		}
	}
	return { kind: 'member', userId, position, roleName, ...(roleId === undefined ? {} : { roleId }) };
}
