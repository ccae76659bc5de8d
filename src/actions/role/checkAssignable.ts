import { ErrorCodes, JobError } from '../../errors.js';
import type { GuildContext } from '../../jobs/index.js';
import type { GuildRole } from '../ActionModule.js';

/**
 * Refuses, before anything runs, a role the workers could never hand out or take, with what to
 * change: Discord would answer every request with 403 (50013), each one counting towards its
 * invalid-request limit.
 *
 * @throws {JobError} `ROLE_NOT_ASSIGNABLE`
 * @see {@link https://discord.com/developers/docs/topics/permissions#permission-hierarchy}
 */
export function checkAssignable(role: GuildRole, ctx: GuildContext): void {
	if (role.id === ctx.guildId) {
		throw new JobError(ErrorCodes.RoleNotAssignable, '@everyone belongs to every member and cannot be given or taken; pick another role.');
	}
	if (role.managed) {
		throw new JobError(
			ErrorCodes.RoleNotAssignable,
			`@${role.name} is managed by Discord or an integration (a bot's own role, the booster role): nobody can give or take it by hand. Pick another role.`,
		);
	}
	if (role.position >= ctx.workerHighestPosition) {
		throw new JobError(
			ErrorCodes.RoleNotAssignable,
			`@${role.name} is at or above the workers' highest role, so Discord would refuse every change. Move the workers' role above @${role.name} (Server Settings → Roles), then run it again.`,
		);
	}
}
