import type { GuildContext } from '../../jobs/index.js';
import type { GuildRole } from '../ActionModule.js';
import { checkAssignable } from './checkAssignable.js';
import { RoleAction, type RoleMode } from './RoleAction.js';

/**
 * The action of `/massrole` and `massnick run massrole`: giving or taking `role`, refused before
 * anything runs when the workers could never hand it out (see {@link checkAssignable}).
 *
 * @throws {JobError} `ROLE_NOT_ASSIGNABLE`
 */
export function assignableRoleAction(role: GuildRole, mode: RoleMode, ctx: GuildContext): RoleAction {
	checkAssignable(role, ctx);
	return new RoleAction({ id: role.id, name: role.name }, mode);
}
