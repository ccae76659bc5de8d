import type { JournalHeader, MassAction } from '../jobs/index.js';
import type { ActionDeps, ActionModule } from './ActionModule.js';
import { actionModules } from './actionModules.js';

/** The module whose actions write journals of `type`; `undefined` for a type no module writes. */
export function moduleOfType(type: string, modules: readonly ActionModule[] = actionModules): ActionModule | undefined {
	return modules.find((module) => module.journalTypes.includes(type));
}

/**
 * Rebuilds the action that wrote a journal, for `/restore`: the module whose journal types name
 * it. `undefined` for a type this massnick does not know (a newer version wrote it).
 */
export function actionOf(header: JournalHeader, deps: ActionDeps): MassAction | undefined {
	return moduleOfType(header.action)?.fromJournal(header, deps);
}
