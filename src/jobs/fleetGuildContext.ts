import { administratorRoleIds } from '../discord/administratorRoleIds.js';
import { ErrorCodes, JobError } from '../errors.js';
import type { Fleet } from '../workers/Fleet.js';
import type { GuildContext } from './GuildContext.js';

/**
 * The guild as the planner sees it, from the workers' own gateway caches: for a process that
 * runs without the boss (a fleet's pod). A worker connects with the Guilds intent, which brings
 * the roles, the owner and its own member, and keeps them current; that is all a plan needs.
 *
 * Our bots are the workers this process holds and `otherBotIds` (the lister). The workers of
 * other processes are not known here: they rank with the workers, so they plan as "can't"
 * rather than "left alone", and are never changed either way.
 *
 * @throws {JobError} `NO_WORKERS` when no held worker is connected.
 */
export function fleetGuildContext(fleet: Fleet, otherBotIds: Iterable<string>): GuildContext {
	const active = fleet.active;
	const guild = active[0]?.guild;
	if (!guild) throw new JobError(ErrorCodes.NoWorkers, 'No worker of this process is connected, so the guild cannot be read: check WORKER_TOKENS and the log.');
	const botUserIds = new Set<string>(otherBotIds);
	for (const worker of fleet.workers) if (worker.client.user) botUserIds.add(worker.client.user.id);
	return {
		guildId: guild.id,
		ownerId: guild.ownerId,
		rolePositions: new Map(guild.roles.cache.map((role) => [role.id, role.position])),
		botUserIds,
		workerHighestPosition: Math.min(...active.map((worker) => worker.highestRolePosition)),
		administratorRoleIds: administratorRoleIds(guild.roles.cache.values()),
	};
}
