import { listInWords, permissionNames } from '../../discord/permissionNames.js';
import { orAllowed } from '../../config/index.js';
import { ErrorCodes, JobError } from '../../errors.js';
import { missingBits } from './missingBits.js';
import type { Precondition } from './Precondition.js';

/**
 * Who asked holds, by hand, the permission Discord asks of anyone for this action (its
 * `permission`: Manage Nicknames to edit nicknames, Manage Roles to give or take a role, Ban
 * Members and Manage Guild both for a bulk ban), or the operator's allow-lists stand in for it
 * (only for Manage Nicknames and Manage Roles: `ALLOW_LIST_GRANTS`). Its undo
 * needs the same: taking a role back is a role change. The refusal names what they lack.
 */
export const requesterPermission: Precondition = {
	name: 'requester-permission',
	needsAction: true,
	check({ action, allowed }) {
		if (allowed === undefined || allowed(action.permission)) return;
		const lacking = missingBits(action.permission, allowed);
		const names = permissionNames(lacking === 0n ? action.permission : lacking);
		throw new JobError(
			ErrorCodes.NotAllowed,
			`You may not run this job: ${action.words.doing} needs the ${listInWords(names)} permission${names.length > 1 ? 's' : ''}${orAllowed(action.permission)}, which you lack. Ask someone who has ${names.length > 1 ? 'them' : 'it'}, or a server admin to give ${names.length > 1 ? 'them' : 'it'} to you.`,
			{ context: { precondition: 'requester-permission', permission: names.join(', ') } },
		);
	},
};
