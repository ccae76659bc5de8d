import type { ActionModule } from './ActionModule.js';
import { actionModules } from './actionModules.js';

/** The module that takes a nickname as text, for `/stats name:` and `/restore name:`. */
export function namedModule(modules: readonly ActionModule[] = actionModules): ActionModule & { byName: NonNullable<ActionModule['byName']> } {
	const module = modules.find((candidate) => candidate.byName !== undefined);
	if (!module?.byName) throw new Error('no action module counts members by a name');
	return module as ActionModule & { byName: NonNullable<ActionModule['byName']> };
}
