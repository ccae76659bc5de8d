import { fitNickname, normalizeNickname, NICKNAME_MAX_LENGTH } from '../shared/nicknameEdits/index.js';
import type { CleanNameOptions } from './CleanNameOptions.js';
import { dehoist } from './dehoist.js';
import { foldDecoratedLetters } from './foldDecoratedLetters.js';
import { foldLookalikeLetters } from './foldLookalikeLetters.js';
import { isPlainName } from './isPlainName.js';
import { removeInvisibles } from './removeInvisibles.js';
import { stripPiledMarks } from './stripPiledMarks.js';

/**
 * The nickname that makes `name` readable in the member list: `name` is what the member shows now
 * (nickname, else display name, else username), and the result is the same name without what
 * decorates or hoists it. `undefined` when nothing readable is left (`!!!`, `ㅤ`, `★☆★`); the
 * caller then falls back to a template such as `{username}`.
 *
 * In order: invisible characters go ({@link removeInvisibles}), decorated letters become plain
 * ({@link foldDecoratedLetters}), Latin words spelled with look-alike letters of another script
 * become Latin ({@link foldLookalikeLetters}), piled-up combining marks go ({@link stripPiledMarks}),
 * whitespace is collapsed and trimmed as Discord does, what precedes the first letter goes
 * ({@link dehoist}), and the name is cut to `maxLength` code points at a grapheme boundary.
 *
 * A name in any script that is already clean comes back identical, and so does a cleaned one:
 * `cleanName(cleanName(x)) === cleanName(x)`, so a rerun changes nothing. Cutting or dehoisting
 * can leave a word or a start that a step would now judge differently, so the steps are repeated
 * on their result until it no longer changes or is plain (in practice a changed name takes one
 * more pass, and a name that was plain to begin with takes none).
 *
 * @see https://discord.com/developers/docs/resources/user#usernames-and-nicknames
 */
export function cleanName(name: string, options: CleanNameOptions = {}): string | undefined {
	let cleaned = name;
	for (let pass = 0; pass < MAX_PASSES && cleaned !== '' && !isPlainName(cleaned, options); pass++) {
		const again = cleanOnce(cleaned, options);
		if (again === cleaned) break;
		cleaned = again;
	}
	return cleaned === '' ? undefined : cleaned;
}

/** Every pass only shortens a name or makes it plainer, so this bound is never reached by design. */
const MAX_PASSES = 4;

function cleanOnce(name: string, { maxLength = NICKNAME_MAX_LENGTH, dehoistDigits = false }: CleanNameOptions): string {
	const plain = stripPiledMarks(foldLookalikeLetters(foldDecoratedLetters(removeInvisibles(name))));
	const dehoisted = dehoist(normalizeNickname(plain), { digitsHoist: dehoistDigits });
	return fitNickname(normalizeNickname(dehoisted), maxLength);
}
