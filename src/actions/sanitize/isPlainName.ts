import { NICKNAME_MAX_LENGTH } from '../shared/nicknameEdits/index.js';
import type { CleanNameOptions } from './CleanNameOptions.js';

/**
 * Whether `name` is already clean on sight: printable ASCII, starting with a letter (or a digit,
 * unless digits hoist), with single spaces between words and none at the ends, and short enough.
 * {@link cleanName} would return such a name unchanged, so it answers without the Unicode work;
 * on a server of millions most names are like this.
 */
export function isPlainName(name: string, { maxLength = NICKNAME_MAX_LENGTH, dehoistDigits = false }: CleanNameOptions = {}): boolean {
	return name.length <= maxLength && (dehoistDigits ? PLAIN_FROM_LETTER : PLAIN).test(name);
}

const PLAIN = /^[A-Za-z0-9](?:[!-~]| (?=[!-~]))*$/;
const PLAIN_FROM_LETTER = /^[A-Za-z](?:[!-~]| (?=[!-~]))*$/;
