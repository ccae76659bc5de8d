import type { CleanNameOptions } from './CleanNameOptions.js';
import { cleanName } from './cleanName.js';
import { isPlainName } from './isPlainName.js';

/**
 * Whether {@link cleanName} would change `name` (or find nothing readable in it): the planner's
 * "already done" test. A plain ASCII name answers `false` at once, without the Unicode work.
 */
export function needsCleaning(name: string, options: CleanNameOptions = {}): boolean {
	return !isPlainName(name, options) && cleanName(name, options) !== name;
}
