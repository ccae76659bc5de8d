import type { JournalHeader } from '../jobs/Journal.js';
import type { MassAction } from '../jobs/MassAction.js';
import { NICKNAME, NicknameAction } from './nickname/NicknameAction.js';
import { parseTemplate } from './nickname/template.js';
import { ROLE_ACTION_TYPES, RoleAction, type RoleRef } from './role/RoleAction.js';

/** What rebuilding an action needs from the running bot. */
export interface ActionDeps {
	/** `nickname.maxLength` from the settings. */
	readonly nicknameMaxLength: number;
	/** The role by id, from the boss's cache; `undefined` if it was deleted. */
	role(id: string): RoleRef | undefined;
}

/** Version 1 journals (before mass actions) name their one action by its old job kind. */
const VERSION_1_NICKNAME = 'rename';

/**
 * Rebuilds the action that wrote a journal, for `/restore`: every action the engine can undo is
 * listed here, by the type it writes in its journals. `undefined` for a type this massnick does
 * not know (a newer version wrote it).
 */
export function actionOf(header: JournalHeader, deps: ActionDeps): MassAction | undefined {
	switch (header.action) {
		case NICKNAME:
		case VERSION_1_NICKNAME:
			return new NicknameAction(parseTemplate(header.target, { maxLength: deps.nicknameMaxLength }));
		case ROLE_ACTION_TYPES.add:
		case ROLE_ACTION_TYPES.remove: {
			// A role deleted since: nobody holds it, so the restore finds nothing to change.
			const role = deps.role(header.target) ?? { id: header.target, name: `deleted-role-${header.target}` };
			return new RoleAction(role, header.action === ROLE_ACTION_TYPES.add ? 'add' : 'remove');
		}
		default:
			return undefined;
	}
}
