export type { ActionArgs, ActionDeps, ActionModule, ActionSettings, GuildRole, RequestedAction } from './ActionModule.js';
export { actionModules } from './actionModules.js';
export { actionOf, moduleOfType } from './actionOf.js';
export { type CommandPermission, commandPermissions } from './commandPermissions.js';
export {
	actionCommandData,
	commonOptions,
	DRY_RUN_OPTION,
	EXCLUDE_ROLE_OPTION,
	FILTER_OPTIONS,
	KEEP_OPTION,
	ONLY_ROLE_OPTION,
	UNTIL_OPTION,
} from './commonOptions.js';
export { namedModule } from './namedModule.js';
export { fileLabel, type IdsFile, type ReadFiltersOptions, readFilters } from './readFilters.js';
export { readKeep } from './readKeep.js';
