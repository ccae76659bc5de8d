export type { CleanNameOptions } from './CleanNameOptions.js';
export { cleanName } from './cleanName.js';
export { needsCleaning } from './needsCleaning.js';
export { sanitizeModule } from './sanitizeModule.js';
