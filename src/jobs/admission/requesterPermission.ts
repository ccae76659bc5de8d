import { permissionNames } from '../../discord/permissionNames.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { Precondition } from './Precondition.js';

/**
 * Who asked holds, by hand, the permission Discord asks of anyone for this action (its
 * `permission`: Manage Nicknames to edit nicknames, Manage Roles to give or take a role), or the
 * operator's settings allow them. Its undo needs the same: taking a role back is a role change.
 */
export const requesterPermission: Precondition = {
	name: 'requester-permission',
	needsAction: true,
	check({ action, allowed }) {
		if (allowed === undefined || allowed(action.permission)) return;
		const names = permissionNames(action.permission).join(', ');
		throw new JobError(
			ErrorCodes.NotAllowed,
			`You may not run this job: ${action.words.doing} needs the ${names} permission (or a role the operator allowed). Ask someone who has it, or a server admin to give it to you.`,
			{ context: { precondition: 'requester-permission', permission: names } },
		);
	},
};
