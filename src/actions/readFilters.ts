import type { MemberFilters } from '../jobs/planner.js';
import type { ActionArgs, ActionModule } from './ActionModule.js';
import { EXCLUDE_ROLE_OPTION, ONLY_ROLE_OPTION } from './commonOptions.js';

/** Who a job is about, from the {@link commonOptions} it was asked with. */
export function readFilters(args: ActionArgs, module: ActionModule): MemberFilters {
	return {
		onlyRoleId: args.role(module.onlyRoleOption ?? ONLY_ROLE_OPTION),
		excludeRoleId: args.role(EXCLUDE_ROLE_OPTION),
	};
}
