import { listInWords, permissionNames } from '../../discord/permissionNames.js';
import { ErrorCodes, JobError } from '../../errors.js';
import { missingBits } from './missingBits.js';
import type { Precondition } from './Precondition.js';

/** A connected worker as {@link workersPermission} sees it. */
export interface PermittedWorker {
	readonly label: string;
	hasPermission(permission: bigint): boolean;
}

/**
 * Every connected worker holds the action's permission (each of its flags: a bulk ban needs Ban
 * Members and Manage Guild): a worker without it would earn a 403 for each member of its slice.
 * The refusal names the flags some worker lacks.
 */
export function workersPermission(active: () => readonly PermittedWorker[]): Precondition {
	return {
		name: 'workers-permission',
		needsAction: true,
		check({ action }) {
			const lacking = active().filter((worker) => !worker.hasPermission(action.permission));
			if (lacking.length === 0) return;
			const names = lacking.map((worker) => worker.label).join(', ');
			const missing = lacking.reduce((bits, worker) => bits | missingBits(action.permission, (flag) => worker.hasPermission(flag)), 0n);
			const flags = permissionNames(missing === 0n ? action.permission : missing);
			const permission = listInWords(flags);
			throw new JobError(
				ErrorCodes.MissingPermission,
				`${lacking.length === 1 ? `${names} lacks` : `${names} lack`} the ${permission} permission${flags.length > 1 ? 's' : ''} this job needs: give the workers' role ${permission} (Server Settings → Roles), then run it again.`,
				{ context: { precondition: 'workers-permission', workers: lacking.map((worker) => worker.label), permission: flags.join(', ') } },
			);
		},
	};
}
