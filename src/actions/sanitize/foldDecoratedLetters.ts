import { SMALL_CAPITALS } from './smallCapitals.js';

/**
 * Turns decorated letters and digits back into plain ones, from Unicode's own data as Node ships
 * it (so it follows each new Unicode version without a table here to update):
 *
 * - the compatibility decompositions (NFKC): mathematical alphanumerics `𝐁𝐨𝐥𝐝 𝓈𝒸𝓇𝒾𝓅𝓉 𝕯𝖗𝖆𝖌𝖔𝖓`,
 *   fullwidth `ｆｕｌｌ`, circled `ⓒⓘⓡⓒⓛⓔ`, squared `🄰`, superscripts, ligatures; a
 *   parenthesized letter `⒜` gives the letter alone, not `(a)`;
 * - root collation (CLDR) for symbols that Unicode treats as a variant of one Latin letter or
 *   digit without decomposing them: negative circled and squared letters `🅐 🅱`, dingbat digits
 *   `❶`. Only symbols of no script are asked, so Arabic-Indic or Devanagari digits stay;
 * - {@link SMALL_CAPITALS} for `ᴀʙᴄ`, which no Unicode data links to their letters.
 *
 * Kept as they are, since NFKC would change how a legitimate name looks: Hangul compatibility jamo
 * (`ㅋㅋ` would become conjoining jamo), the Arabic ligatures ﷺ and ﷻ (they would expand into
 * whole phrases), and spacing accents such as `´` (they would become a space and a combining mark).
 *
 * The result is in NFC, as Discord's clients type names.
 *
 * @see https://www.unicode.org/reports/tr15/#Compatibility_Equivalence_Figure
 * @see https://www.unicode.org/reports/tr10/#Tertiary_Weight_Table
 */
export function foldDecoratedLetters(name: string): string {
	// A name NFKC leaves alone has nothing NFKC would fold in it, and is in NFC already.
	if (!MAY_COLLATE_AS_LETTER.test(name) && name.normalize('NFKC') === name) return name;
	let folded = '';
	let replacedPrevious = false;
	for (const point of name) {
		if (point.charCodeAt(0) < 0x80) {
			folded += point;
			replacedPrevious = false;
		} else if (replacedPrevious && EMOJI_OR_TEXT_STYLE.test(point)) {
			// 🅱️ is the letter B styled as an emoji; with the letter folded the selector means nothing.
			replacedPrevious = false;
		} else {
			const plain = foldPoint(point);
			folded += plain;
			replacedPrevious = plain !== point;
		}
	}
	return folded.normalize('NFC');
}

const MAY_COLLATE_AS_LETTER = new RegExp(`[\\p{So}\\p{No}${Array.from(SMALL_CAPITALS.keys()).join('')}]`, 'u');
const EMOJI_OR_TEXT_STYLE = /^[\uFE0E\uFE0F]$/u;
const KEPT_AS_IS = /^[\u3131-\u318E\uFFA1-\uFFDC\uFDFA\uFDFB]$/u;
const SPACE_AND_MARK = /^ \p{M}/u;
const PARENTHESIZED = /^\(([^()]+)\)$/u;
const SYMBOL_OF_NO_SCRIPT = /^(?=\p{Script=Common})[\p{So}\p{No}]$/u;

const memo = new Map<string, string>();

function foldPoint(point: string): string {
	let plain = memo.get(point);
	if (plain === undefined) {
		plain = computeFold(point);
		memo.set(point, plain);
	}
	return plain;
}

function computeFold(point: string): string {
	if (KEPT_AS_IS.test(point)) return point;
	const smallCapital = SMALL_CAPITALS.get(point);
	if (smallCapital !== undefined) return smallCapital;
	const compatible = point.normalize('NFKC');
	if (compatible !== point) {
		if (SPACE_AND_MARK.test(compatible)) return point;
		return PARENTHESIZED.exec(compatible)?.[1] ?? compatible;
	}
	if (SYMBOL_OF_NO_SCRIPT.test(point)) return collatesAs(point) ?? point;
	return point;
}

const LETTERS_AND_DIGITS = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const ignoringCase = new Intl.Collator('und', { sensitivity: 'accent' });
const withCase = new Intl.Collator('und', { sensitivity: 'case' });

/** The ASCII letter or digit `point` differs from only in the tertiary weight, in its case. */
function collatesAs(point: string): string | undefined {
	const upper = LETTERS_AND_DIGITS.find((plain) => ignoringCase.compare(point, plain) === 0);
	if (upper === undefined) return undefined;
	return withCase.compare(point, upper) === 0 ? upper : upper.toLowerCase();
}
