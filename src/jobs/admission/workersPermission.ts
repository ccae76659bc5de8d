import { permissionNames } from '../../discord/permissionNames.js';
import { ErrorCodes, JobError } from '../../errors.js';
import type { Precondition } from './Precondition.js';

/** A connected worker as {@link workersPermission} sees it. */
export interface PermittedWorker {
	readonly label: string;
	hasPermission(permission: bigint): boolean;
}

/**
 * Every connected worker holds the action's permission: a worker without it would earn a 403 for
 * each member of its slice.
 */
export function workersPermission(active: () => readonly PermittedWorker[]): Precondition {
	return {
		name: 'workers-permission',
		needsAction: true,
		check({ action }) {
			const lacking = active().filter((worker) => !worker.hasPermission(action.permission));
			if (lacking.length === 0) return;
			const names = lacking.map((worker) => worker.label).join(', ');
			const permission = permissionNames(action.permission).join(', ');
			throw new JobError(
				ErrorCodes.MissingPermission,
				`${lacking.length === 1 ? `${names} lacks` : `${names} lack`} the ${permission} permission this job needs: give the workers' role ${permission} (Server Settings → Roles), then run it again.`,
				{ context: { precondition: 'workers-permission', workers: lacking.map((worker) => worker.label), permission } },
			);
		},
	};
}
