import type { ActionModule } from './ActionModule.js';
import { banModule } from './ban/banModule.js';
import { clearModule } from './clear/clearModule.js';
import { kickModule } from './kick/index.js';
import { nicknameModule } from './nickname/nicknameModule.js';
import { roleModule } from './role/roleModule.js';
import { sanitizeModule } from './sanitize/index.js';
import { timeoutModule } from './timeout/timeoutModule.js';

/**
 * Every mass action massnick has, in the order its commands are listed. The boss registers a
 * command for each and `massnick run` a job; a journal is restored by the module whose
 * `journalTypes` name it. Adding an action is one folder and one line here.
 */
export const actionModules: readonly ActionModule[] = [nicknameModule, roleModule, sanitizeModule, clearModule, timeoutModule, kickModule, banModule];
