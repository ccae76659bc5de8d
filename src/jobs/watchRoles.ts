import { Events, type Role } from 'discord.js';
import type { Fleet } from '../workers/Fleet.js';
import type { Job } from './Job.js';

/**
 * Carries Discord's role events (GUILD_ROLE_UPDATE, GUILD_ROLE_DELETE; every worker gets them with
 * the Guilds intent) to the running job's action while it runs, so a job whose role is deleted or
 * moved out of the workers' reach stops before its requests meet it, instead of earning one 403
 * or 404 a member. Returns the unsubscribe. The action's `endsJob` is the line behind this one:
 * an event may come after a request has been refused.
 */
export function watchRoles(job: Job, fleet: Fleet, guildId: string): () => void {
	const { action } = job;
	if (!action.roleChanged) return () => {};
	const workersTop = (): number => Math.min(...fleet.active.map((worker) => worker.highestRolePosition));
	const seen = (role: Role, deleted: boolean): void => {
		if (role.guild.id !== guildId) return;
		const error = action.roleChanged!({ id: role.id, deleted, position: role.position }, workersTop());
		if (error) job.fail(error);
	};
	const onUpdate = (_old: Role, role: Role): void => seen(role, false);
	const onDelete = (role: Role): void => seen(role, true);
	const clients = fleet.workers.map((worker) => worker.client);
	for (const client of clients) {
		client.on(Events.GuildRoleUpdate, onUpdate);
		client.on(Events.GuildRoleDelete, onDelete);
	}
	return () => {
		for (const client of clients) {
			client.off(Events.GuildRoleUpdate, onUpdate);
			client.off(Events.GuildRoleDelete, onDelete);
		}
	};
}
