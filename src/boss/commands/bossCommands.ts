import { actionModules } from '../../actions/index.js';
import { actionCommand } from './actionCommand.js';
import type { BossCommand } from './BossCommand.js';
import { cancelCommand } from './cancel.js';
import { lockdownCommand } from './lockdown.js';
import { restoreCommand } from './restore.js';
import { shardsCommand } from './shards.js';
import { statsCommand } from './stats.js';
import { statusCommand } from './status.js';

/** Every command the boss registers in the guild, in the order Discord lists them: one per action module, then the boss's own, then /lockdown. */
export const bossCommands: readonly BossCommand[] = [
	...actionModules.map(actionCommand),
	restoreCommand,
	statusCommand,
	statsCommand,
	shardsCommand,
	cancelCommand,
	lockdownCommand,
];

/** The commands' definitions, as the guild's command list holds them. */
export const commandDefinitions = bossCommands.map((command) => command.data);
